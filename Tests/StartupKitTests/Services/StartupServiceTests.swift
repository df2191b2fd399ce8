import StartupKit
import StartupKitTesting
import StartupTestSupport
import Testing

/// Services: ready, not just started. Dependents start at ready and read the service's output;
/// the report counts the time to ready; shutdown stops services and modules in reverse
/// dependency order. No sleeps: services serve until cancelled, and the clock is manual where
/// time matters.
@Suite(.timeLimit(.minutes(1))) struct StartupServiceTests {
    struct Boom: Error, CustomStringConvertible {
        var description: String { "boom" }
    }

    /// A service that logs its start, its readiness and its stop, and serves until cancelled.
    static func serving(_ name: String, log: Log, stopped: Gate? = nil) -> @Sendable (StartupContext, ReadySignal<Int>) async throws -> Void
    {
        { _, ready in
            log.append("\(name) ready")
            ready(0)
            try? await hangUntilCancelled()
            log.append("\(name) stopped")
            stopped?.open()
        }
    }

    @Test func aDependent_startsWhenTheServiceIsReady_readsItsOutput_andTheServiceKeepsServing() async throws {
        let clock = ManualClock()
        let log = Log()
        var builder = StartupPlanBuilder()
        builder.addService("database", output: Int.self) { _, ready in
            try await clock.sleep(for: .milliseconds(120))
            log.append("database ready")
            ready(42)
            try? await hangUntilCancelled()
            log.append("database stopped")
        }
        builder.add("api", dependsOn: ["database"]) { context in
            log.append("api started")
            return try context.output(of: "database", as: Int.self)
        }
        let run = StartupOrchestrator(try builder.build(), clock: clock).start()
        await clock.sleepers(atLeast: 1)
        clock.advance(by: .milliseconds(120))

        #expect(try await run.output(of: "api", as: Int.self) == 42)
        let report = await run.report()
        #expect(report.status == .succeeded)
        #expect(report["database"]?.isService == true && report["api"]?.isService == false)
        #expect(report["database"]?.timeToReady == .milliseconds(120), "a service's duration is its time to ready")
        #expect(report["api"]?.startOffset == .milliseconds(120))
        #expect(report.criticalPath == ["database", "api"])
        #expect(log.entries == ["database ready", "api started"], "still serving after the report")

        let stopped = await run.shutdown()
        #expect(stopped.status == .succeeded)
        #expect(stopped.stopOrder == ["database"])
        #expect(log.entries.last == "database stopped")
    }

    @Test func aServiceThatEndsBeforeReady_fails_andItsDependentsAreSkipped() async throws {
        var builder = StartupPlanBuilder()
        builder.addService("returns") { _, _ in }
        builder.addService("throws") { _, _ in throw Boom() }
        builder.add("needs-returns", dependsOn: ["returns"]) { _ in }
        builder.add("needs-throws", dependsOn: ["throws"]) { _ in }
        let report = await StartupOrchestrator(try builder.build()).run()

        #expect(report.status == .failed)
        guard case .failed(let returned)? = report["returns"]?.status, case .failed(let thrown)? = report["throws"]?.status else {
            Issue.record("both services should have failed")
            return
        }
        #expect(String(describing: returned) == #"service "returns" ended by itself before it was ready (it returned)"#)
        #expect(String(describing: thrown) == "boom")
        #expect(report["needs-returns"]?.status == .skipped(SkipReason(failedCommand: "returns", dependency: "returns")))
        #expect(report["needs-throws"]?.status == .skipped(SkipReason(failedCommand: "throws", dependency: "throws")))
    }

    @Test func theTimeout_boundsTheTimeToReady_andTheServiceIsStopped() async throws {
        let clock = ManualClock()
        let log = Log()
        var builder = StartupPlanBuilder()
        builder.addService("slow", options: .init(timeout: .milliseconds(300))) { _, ready in
            do {
                try await clock.sleep(for: .seconds(10))
            } catch {
                log.append("slow cancelled")
                throw error
            }
            ready()
        }
        builder.add("dependent", dependsOn: ["slow"]) { _ in }
        let orchestrator = StartupOrchestrator(try builder.build(), clock: clock)
        let reporting = Task { await orchestrator.run() }
        await clock.sleepers(atLeast: 2)  // the service's own sleep and its timeout
        clock.advance(by: .milliseconds(300))
        let report = await reporting.value

        #expect(report["slow"]?.status == .timedOut(after: .milliseconds(300)))
        #expect(report["slow"]?.timeToReady == nil)
        #expect(report["dependent"]?.status == .skipped(SkipReason(failedCommand: "slow", dependency: "slow")))
        #expect(log.entries == ["slow cancelled"])
    }

    @Test func retries_startTheServiceAgain_untilItIsReady() async throws {
        let attempts = Counter()
        var builder = StartupPlanBuilder()
        builder.addService("flaky", options: .init(retry: RetryPolicy(maxRetries: 2, initialDelay: .zero))) { context, ready in
            attempts.increment("flaky")
            guard context.attempt == 3 else { throw Boom() }
            ready()
            try await hangUntilCancelled()
        }
        builder.add("dependent", dependsOn: ["flaky"]) { _ in }
        let run = StartupOrchestrator(try builder.build()).start()
        try await run.wait(for: ["dependent"])
        #expect(await run.report()["flaky"]?.attempts == 3)
        #expect(attempts.counts["flaky"] == 3)
        #expect(await run.shutdown().status == .succeeded)
    }

    @Test func shutdown_stopsServicesAndModules_inReverseDependencyOrder_eachAfterItsDependents() async throws {
        let log = Log()
        var builder = StartupPlanBuilder()
        builder.addService("database", output: Int.self, run: Self.serving("database", log: log))
        builder.addService("cache", output: Int.self, run: Self.serving("cache", log: log))
        builder.add("migrations", dependsOn: ["database"]) { _ in }
        builder.addService("api", dependsOn: ["migrations", "cache"], output: Int.self, run: Self.serving("api", log: log))
        let run = StartupOrchestrator(try builder.build()).start()
        try await run.wait(for: ["api"])

        let stopped = await run.shutdown(modules: ["migrations": LoggingModule(name: "migrations", log: log)])
        #expect(stopped.status == .succeeded)
        let entries = log.entries
        func place(_ entry: String) -> Int { entries.firstIndex(of: entry) ?? -1 }
        #expect(place("api stopped") < place("migrations stopped"))
        #expect(place("migrations stopped") < place("database stopped"))
        #expect(place("api stopped") < place("cache stopped"))
        #expect(Set(stopped.stopOrder) == ["api", "migrations", "database", "cache"])
        #expect(stopped.stopOrder.first == "api")
        #expect(await run.shutdown().endOffset == stopped.endOffset, "a second call returns the same report")
    }

    @Test func aServiceThatEndsByItself_isReported_andTheRunShutsDownInOrder() async throws {
        let log = Log()
        let crash = Gate()
        var builder = StartupPlanBuilder()
        builder.addService("database", output: Int.self, run: Self.serving("database", log: log))
        builder.addService("worker", dependsOn: ["database"]) { _, ready in
            ready()
            await crash.wait()
            throw Boom()
        }
        builder.addService("api", dependsOn: ["worker"], output: Int.self, run: Self.serving("api", log: log))
        let run = StartupOrchestrator(try builder.build()).start()
        var events = run.events.makeAsyncIterator()
        try await run.wait(for: ["api"])
        crash.open()
        while let event = await events.next() {
            guard case .serviceEnded(let error, _) = event else { continue }
            #expect(error.description == #"service "worker" ended by itself after it was ready: boom"#)
            break
        }
        let stopped = await run.shutdown()  // the one the run began
        #expect(stopped.status == .failed)
        guard case .failed(let error)? = stopped["worker"]?.status else {
            Issue.record("the worker's end should be reported failed")
            return
        }
        #expect(error is ServiceEndedError)
        #expect(stopped["api"]?.status.isSuccess == true && stopped["database"]?.status.isSuccess == true)
        #expect(log.entries.suffix(2) == ["api stopped", "database stopped"])
    }

    @Test func withKeepRunning_aServiceThatEnds_leavesTheOthersServing() async throws {
        let log = Log()
        var builder = StartupPlanBuilder()
        builder.addService("database", output: Int.self, run: Self.serving("database", log: log))
        builder.addService("one-off") { _, ready in ready() }
        let run = StartupOrchestrator(try builder.build(), options: .init(whenAServiceEnds: .keepRunning)).start()
        var events = run.events.makeAsyncIterator()
        try await run.wait(for: ["database", "one-off"])
        while let event = await events.next() {
            if case .serviceEnded = event { break }
        }
        #expect(!log.entries.contains("database stopped"))
        let stopped = await run.shutdown()
        #expect(log.entries.last == "database stopped")
        guard case .failed? = stopped["one-off"]?.status else {
            Issue.record("a service that ended by itself is reported failed")
            return
        }
    }

    @Test func aServiceThatIgnoresItsStop_isAbandonedAfterItsStopTimeout() async throws {
        let clock = ManualClock()
        let never = Gate()
        let log = Log()
        var builder = StartupPlanBuilder()
        builder.addService("database", output: Int.self, run: Self.serving("database", log: log))
        builder.addService("stubborn", dependsOn: ["database"], options: .init(stopTimeout: .seconds(2))) { _, ready in
            ready()
            await never.wait()
        }
        let run = StartupOrchestrator(try builder.build(), clock: clock).start()
        try await run.wait(for: ["stubborn"])
        let stopping = Task { await run.shutdown() }
        await clock.sleepers(atLeast: 1)  // the stubborn stop's timeout
        clock.advance(by: .seconds(2))
        let stopped = await stopping.value

        #expect(stopped["stubborn"]?.status.name == "timedOut")
        #expect(stopped["database"]?.status.isSuccess == true, "what it depends on stops anyway")
        #expect(stopped.status == .failed)
        never.open()
    }

    @Test func shutdownDuringStartUp_cancelsWhatIsStarting_andStopsWhatIsReady() async throws {
        let log = Log()
        var builder = StartupPlanBuilder()
        builder.addService("database", output: Int.self, run: Self.serving("database", log: log))
        builder.addService("search", dependsOn: ["database"]) { _, _ in
            log.append("search starting")
            try await hangUntilCancelled()
        }
        builder.add("api", dependsOn: ["search"]) { _ in }
        let run = StartupOrchestrator(try builder.build()).start()
        var events = run.events.makeAsyncIterator()
        while let event = await events.next() {
            if case .commandStarted("search", _, _) = event { break }
        }
        let stopped = await run.shutdown()
        let report = await run.report()
        #expect(report.status == .cancelled)
        #expect(report["database"]?.status == .succeeded)
        #expect(report["search"]?.status == .cancelled)
        #expect(report["api"]?.status == .cancelled)
        #expect(stopped.stopOrder == ["database"])
        #expect(log.entries.last == "database stopped")
    }

    @Test func run_keepsServicesUntilItsTaskIsCancelled_thenStopsThemInOrder() async throws {
        let log = Log()
        var builder = StartupPlanBuilder()
        builder.addService("database", output: Int.self, run: Self.serving("database", log: log))
        builder.addService("api", dependsOn: ["database"], output: Int.self, run: Self.serving("api", log: log))
        let apiReady = Gate()
        builder.add("after-api", dependsOn: ["api"]) { _ in apiReady.open() }
        let orchestrator = StartupOrchestrator(try builder.build())
        let running = Task { await orchestrator.run() }
        await apiReady.wait()
        running.cancel()
        let report = await running.value
        #expect(report.status == .succeeded, "start-up had succeeded before the cancellation")
        #expect(Array(log.entries.suffix(2)) == ["api stopped", "database stopped"])
    }

    @Test func theArticlesShutdown_stopsTheModuleJustBeforeItsService_andListsNoFailure() async throws {
        let log = Log()
        var builder = StartupPlanBuilder()
        builder.addService("database", output: Int.self, run: Self.serving("database", log: log))
        let run = StartupOrchestrator(try builder.build()).start()
        try await run.wait(for: ["database"])
        let connectionPool = LoggingModule(name: "pool", log: log)
        // As in the article "Services and shutdown".
        let stopped = await run.shutdown(modules: ["database": connectionPool], stopTimeout: .seconds(5))
        for stop in stopped.failures {
            print(stop.module, stop.status.name)  // a stop that threw or timed out
        }
        #expect(stopped.failures.isEmpty && stopped.stopOrder == ["database"])
        #expect(log.entries == ["database ready", "pool stopped", "database stopped"])
    }

    @Test func droppingTheHandle_shutsTheServicesDown() async throws {
        let log = Log()
        let stopped = Gate()
        var builder = StartupPlanBuilder()
        builder.addService("database", output: Int.self, run: Self.serving("database", log: log, stopped: stopped))
        var run: StartupRun? = StartupOrchestrator(try builder.build()).start()
        try await run?.wait(for: ["database"])
        run = nil
        await stopped.wait()
        #expect(log.entries == ["database ready", "database stopped"])
    }
}

/// A module that logs its stop.
struct LoggingModule: StoppableModule {
    let name: String
    let log: Log

    func stop() async throws {
        log.append("\(name) stopped")
    }
}
