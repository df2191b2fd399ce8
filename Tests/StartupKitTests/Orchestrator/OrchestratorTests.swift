import StartupSupport
import StartupTestSupport
import Testing

@testable import StartupKit

@Suite struct OrchestratorTests {
    struct Boom: Error, Equatable {
        let attempt: Int
    }

    private func statusNames(_ report: StartupReport) -> [String: String] {
        Dictionary(uniqueKeysWithValues: report.commands.map { ($0.id.rawValue, $0.status.name) })
    }

    @Test func run_startsCommandWhenItsOwnDependenciesFinish_notByLevels() async throws {
        // "slow" (level 0) can only finish after "late" (level 1) has run: level-by-level would
        // never get there, and the timeout would fail "slow".
        let gate = Gate()
        var builder = StartupPlanBuilder()
        builder.add("slow", options: CommandOptions(timeout: .seconds(300))) { _ in await gate.wait() }
        builder.add("quick") { _ in }
        builder.add("late", dependsOn: ["quick"]) { _ in gate.open() }
        let report = await StartupOrchestrator(try builder.build()).run()
        #expect(report.status == .succeeded)
        #expect(statusNames(report) == ["slow": "succeeded", "quick": "succeeded", "late": "succeeded"])
    }

    @Test func run_passesTypedOutputsToDependents() async throws {
        struct Configuration: StartupCommand {
            static let id: CommandID = "configuration"
            func execute(_ context: StartupContext) async throws -> String { "postgres://db" }
        }
        struct Database: StartupCommand {
            static let id: CommandID = "database"
            let dependencies: [CommandID] = [Configuration.id]
            func execute(_ context: StartupContext) async throws -> Int {
                try context.output(of: Configuration.self).count
            }
        }
        let seen = Locked<[String]>([])
        var builder = StartupPlanBuilder()
        builder.add(Configuration())
        builder.add(Database())
        builder.add("report", dependsOn: ["database"]) { context in
            let length = try context.output(of: Database.self)
            let url = try context.output(of: "configuration", as: String.self)  // transitive
            seen.withLock { $0.append("\(url) \(length)") }
        }
        let report = await StartupOrchestrator(try builder.build()).run()
        #expect(report.status == .succeeded)
        #expect(seen.withLock { $0 } == ["postgres://db 13"])
    }

    @Test func output_whenNotADependency_throwsInsteadOfRacing() async throws {
        let caught = Locked<[StartupContextError]>([])
        var builder = StartupPlanBuilder()
        builder.add("a") { _ in 1 }
        builder.add("b") { context in
            do { _ = try context.output(of: "a", as: Int.self) } catch let error as StartupContextError {
                caught.withLock { $0.append(error) }
            }
            do { _ = try context.output(of: "zzz", as: Int.self) } catch let error as StartupContextError {
                caught.withLock { $0.append(error) }
            }
        }
        builder.add("c", dependsOn: ["a"]) { context in
            do { _ = try context.output(of: "a", as: String.self) } catch let error as StartupContextError {
                caught.withLock { $0.append(error) }
            }
        }
        _ = await StartupOrchestrator(try builder.build(), options: .init(maxConcurrency: 1)).run()
        let errors = caught.withLock { $0 }
        #expect(Set(errors.map(\.code)) == [.notADependency, .unknownCommand, .outputTypeMismatch])
        let notADependency = try #require(errors.first { $0.code == .notADependency })
        #expect(
            notADependency.description
                == "\"b\" asked for the output of \"a\", which is not among its dependencies; add \"a\" to its dependencies")
        let mismatch = try #require(errors.first { $0.code == .outputTypeMismatch })
        #expect(mismatch.description == "\"c\" asked for the output of \"a\": its output is Int, not String")
    }

    @Test func run_whenCommandFails_skipsDependentsWithReasonAndContinuesIndependentOnes() async throws {
        var builder = StartupPlanBuilder()
        builder.add("database") { _ in throw Boom(attempt: 1) }
        builder.add("cache", dependsOn: ["database"]) { _ in }
        builder.add("api", dependsOn: ["cache"]) { _ in }
        builder.add("logging") { _ in }
        let report = await StartupOrchestrator(try builder.build()).run()
        #expect(report.status == .failed)
        #expect(statusNames(report) == ["database": "failed", "cache": "skipped", "api": "skipped", "logging": "succeeded"])
        guard case .failed(let error) = report["database"]!.status else {
            Issue.record("database should fail")
            return
        }
        #expect(error as? Boom == Boom(attempt: 1))
        guard case .skipped(let reason) = report["api"]!.status else {
            Issue.record("api should be skipped")
            return
        }
        #expect(reason == SkipReason(failedCommand: "database", dependency: "cache"))
        #expect(reason.description == "dependency \"cache\" was skipped because \"database\" did not succeed")
        #expect(report["api"]!.attempts == 0 && report["api"]!.startOffset == nil)
        #expect(report.failures.map(\.id) == ["database", "cache", "api"])
    }

    @Test func run_whenOptionalCommandFails_runStillSucceeds() async throws {
        var builder = StartupPlanBuilder()
        builder.add("analytics", options: CommandOptions(isOptional: true)) { _ in throw Boom(attempt: 1) }
        builder.add("analytics-upload", dependsOn: ["analytics"], options: CommandOptions(isOptional: true)) { _ in }
        builder.add("app") { _ in }
        let report = await StartupOrchestrator(try builder.build()).run()
        #expect(report.status == .succeeded)
        #expect(statusNames(report) == ["analytics": "failed", "analytics-upload": "skipped", "app": "succeeded"])
        #expect(report.failures.isEmpty)
    }

    @Test func run_whenOptionalCommandFails_requiredDependentFailsTheRun() async throws {
        var builder = StartupPlanBuilder()
        builder.add("analytics", options: CommandOptions(isOptional: true)) { _ in throw Boom(attempt: 1) }
        builder.add("dashboard", dependsOn: ["analytics"]) { _ in }
        let report = await StartupOrchestrator(try builder.build()).run()
        #expect(report.status == .failed)
        #expect(report.failures.map(\.id) == ["dashboard"])
    }

    @Test func run_failFast_cancelsInFlightAndUnstartedCommands() async throws {
        let started = Gate()
        var builder = StartupPlanBuilder()
        builder.add("hanging") { _ in
            started.open()
            try await hangUntilCancelled()
        }
        builder.add("failing") { _ in
            await started.wait()
            throw Boom(attempt: 1)
        }
        builder.add("after-hanging", dependsOn: ["hanging"]) { _ in }
        builder.add("after-failing", dependsOn: ["failing"]) { _ in }
        let report = await StartupOrchestrator(try builder.build(), options: .init(failurePolicy: .failFast)).run()
        #expect(report.status == .failed)
        #expect(
            statusNames(report) == [
                "hanging": "cancelled", "failing": "failed", "after-hanging": "cancelled", "after-failing": "skipped",
            ])
    }

    @Test func run_whenFailFastAndOptionalFails_keepsGoing() async throws {
        var builder = StartupPlanBuilder()
        builder.add("optional", options: CommandOptions(isOptional: true)) { _ in throw Boom(attempt: 1) }
        builder.add("required", options: CommandOptions(priority: .low)) { _ in }
        let report = await StartupOrchestrator(try builder.build(), options: .init(maxConcurrency: 1, failurePolicy: .failFast)).run()
        #expect(statusNames(report) == ["optional": "failed", "required": "succeeded"])
        #expect(report.status == .succeeded)
    }

    @Test func run_whenCommandOutlivesTimeout_cancelsItAndReportsTimedOut() async throws {
        let wasCancelled = Locked(false)
        var builder = StartupPlanBuilder()
        builder.add("stuck", options: CommandOptions(timeout: .milliseconds(20))) { _ in
            do { try await hangUntilCancelled() } catch {
                wasCancelled.withLock { $0 = true }
                throw error
            }
        }
        builder.add("after", dependsOn: ["stuck"]) { _ in }
        let report = await StartupOrchestrator(try builder.build()).run()
        guard case .timedOut(let limit) = report["stuck"]!.status else {
            Issue.record("stuck should time out")
            return
        }
        #expect(limit == .milliseconds(20))
        #expect(wasCancelled.withLock { $0 })
        #expect(statusNames(report)["after"] == "skipped")
        #expect(report.status == .failed)
    }

    @Test func run_whenCommandFinishesWithinTimeout_succeeds() async throws {
        var builder = StartupPlanBuilder()
        builder.add("quick", options: CommandOptions(timeout: .seconds(60))) { _ in 42 }
        builder.add("reader", dependsOn: ["quick"]) { context in
            let value = try context.output(of: "quick", as: Int.self)
            #expect(value == 42)
        }
        let report = await StartupOrchestrator(try builder.build()).run()
        #expect(report.status == .succeeded)
    }

    @Test func run_retriesUntilSuccess_andCountsAttempts() async throws {
        let collector = EventCollector()
        var builder = StartupPlanBuilder()
        builder.add("flaky", options: CommandOptions(retry: RetryPolicy(maxRetries: 2, initialDelay: .zero))) { context in
            if context.attempt < 3 { throw Boom(attempt: context.attempt) }
        }
        let report = await StartupOrchestrator(try builder.build(), options: .init(observers: [collector])).run()
        #expect(report.status == .succeeded)
        #expect(report["flaky"]!.attempts == 3)
        #expect(
            collector.summaries == [
                "started flaky #1", "retrying flaky after #1 failed", "started flaky #2",
                "retrying flaky after #2 failed", "started flaky #3", "finished flaky succeeded",
            ])
    }

    @Test func run_whenRetriesRunOut_failsWithLastError() async throws {
        var builder = StartupPlanBuilder()
        builder.add("broken", options: CommandOptions(retry: RetryPolicy(maxRetries: 1, initialDelay: .zero))) { context in
            throw Boom(attempt: context.attempt)
        }
        let report = await StartupOrchestrator(try builder.build()).run()
        guard case .failed(let error) = report["broken"]!.status else {
            Issue.record("broken should fail")
            return
        }
        #expect(error as? Boom == Boom(attempt: 2))
        #expect(report["broken"]!.attempts == 2)
    }

    @Test func run_retriesTimedOutAttempts() async throws {
        var builder = StartupPlanBuilder()
        builder.add(
            "slow-once", options: CommandOptions(timeout: .milliseconds(20), retry: RetryPolicy(maxRetries: 1, initialDelay: .zero))
        ) { context in
            if context.attempt == 1 { try await hangUntilCancelled() }
        }
        let report = await StartupOrchestrator(try builder.build()).run()
        #expect(report["slow-once"]!.status.isSuccess)
        #expect(report["slow-once"]!.attempts == 2)
    }

    @Test func retryPolicy_delaysGrowExponentiallyUpToTheCeiling() {
        let policy = RetryPolicy(maxRetries: 5, initialDelay: .milliseconds(100), multiplier: 2, maxDelay: .milliseconds(350))
        #expect(
            (1...5).map { policy.delay(beforeAttempt: $0) } == [
                .zero, .milliseconds(100), .milliseconds(200), .milliseconds(350), .milliseconds(350),
            ])
    }

    @Test func run_whenCancelled_cancelsInFlightAndStillReturnsReport() async throws {
        let started = Gate()
        var builder = StartupPlanBuilder()
        builder.add("done") { _ in }
        builder.add("hanging", dependsOn: ["done"]) { _ in
            started.open()
            try await hangUntilCancelled()
        }
        builder.add("never", dependsOn: ["hanging"]) { _ in }
        let orchestrator = StartupOrchestrator(try builder.build())
        let run = Task { await orchestrator.run() }
        await started.wait()
        run.cancel()
        let report = await run.value
        #expect(report.status == .cancelled)
        #expect(statusNames(report) == ["done": "succeeded", "hanging": "cancelled", "never": "cancelled"])
    }

    @Test func run_whenCancelledBeforeStart_runsNothing() async throws {
        var builder = StartupPlanBuilder()
        builder.add("a") { _ in Issue.record("must not run") }
        let orchestrator = StartupOrchestrator(try builder.build())
        let run = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await orchestrator.run()
        }
        let report = await run.value
        #expect(report.status == .cancelled)
        #expect(report["a"]!.attempts == 0)
    }

    @Test func run_withOneSlot_ordersByPriorityThenRemainingPathThenDeclaration() async throws {
        let order = Locked<[CommandID]>([])
        var builder = StartupPlanBuilder()
        func add(_ id: CommandID, _ dependencies: [CommandID] = [], priority: CommandPriority = .normal, estimate: Duration? = nil) {
            builder.add(id, dependsOn: dependencies, options: CommandOptions(priority: priority, estimate: estimate)) { _ in
                order.withLock { $0.append(id) }
            }
        }
        add("short-first")
        add("short-second")
        add("long-head", estimate: .milliseconds(5))
        add("long-tail", ["long-head"], estimate: .milliseconds(50))
        add("urgent", priority: .high)
        add("later", priority: .low, estimate: .seconds(10))
        let report = await StartupOrchestrator(try builder.build(), options: .init(maxConcurrency: 1)).run()
        #expect(report.status == .succeeded)
        #expect(order.withLock { $0 } == ["urgent", "long-head", "long-tail", "short-first", "short-second", "later"])
    }

    @Test func run_mainActorCommand_runsOnTheMainActor() async throws {
        struct FirstScreen: MainActorStartupCommand {
            static let id: CommandID = "first-screen"
            @MainActor func execute(_ context: StartupContext) async throws -> String {
                MainActor.assertIsolated()
                return "shown"
            }
        }
        var builder = StartupPlanBuilder()
        builder.add(FirstScreen())
        builder.addOnMainActor("window", dependsOn: ["first-screen"]) { context in
            MainActor.assertIsolated()
            return try context.output(of: FirstScreen.self)
        }
        let report = await StartupOrchestrator(try builder.build()).run()
        #expect(report.status == .succeeded)
    }

    @Test func run_notifiesObserversInOrder() async throws {
        let collector = EventCollector()
        var builder = StartupPlanBuilder()
        builder.add("a") { _ in }
        builder.add("b", dependsOn: ["a"]) { _ in throw Boom(attempt: 1) }
        builder.add("c", dependsOn: ["b"]) { _ in }
        let report = await StartupOrchestrator(try builder.build(), options: .init(observers: [collector])).run()
        #expect(
            collector.summaries == [
                "started a #1", "finished a succeeded", "started b #1", "finished b failed", "finished c skipped",
            ])
        guard case .runStarted(3) = collector.all.first, case .runFinished(let final) = collector.all.last else {
            Issue.record("the run's events should frame the command events")
            return
        }
        #expect(final.status == report.status)
    }

    @Test func report_measuresTimesAndCriticalPath() async throws {
        var builder = StartupPlanBuilder()
        builder.add("a") { _ in }
        builder.add("b", dependsOn: ["a"]) { _ in }
        let report = await StartupOrchestrator(try builder.build()).run()
        let a = try #require(report["a"])
        let b = try #require(report["b"])
        #expect(try #require(a.endOffset) <= #require(b.startOffset))
        #expect(report.totalDuration == a.duration + b.duration)
        #expect(report.criticalPath == ["a", "b"])
        #expect(a.isOnCriticalPath && b.isOnCriticalPath)
        #expect(report.commandsByStart.map(\.id) == ["a", "b"])
        #expect(report.parallelism >= 0 && report.parallelism <= 1.0001)
    }

    @Test func report_criticalPath_endsAtTheLastCommandThatRan_notAtSkippedDependents() async throws {
        var builder = StartupPlanBuilder()
        builder.add("a") { _ in }
        builder.add("b", dependsOn: ["a"]) { _ in throw Boom(attempt: 1) }
        builder.add("c", dependsOn: ["b"]) { _ in }
        builder.add("d", dependsOn: ["c"]) { _ in }
        let report = await StartupOrchestrator(try builder.build()).run()
        #expect(statusNames(report) == ["a": "succeeded", "b": "failed", "c": "skipped", "d": "skipped"])
        #expect(report.criticalPath == ["a", "b"])
        #expect(report["c"]?.isOnCriticalPath == false && report["d"]?.isOnCriticalPath == false)
    }
}
