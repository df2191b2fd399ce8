import Dispatch
import StartupKitTesting
import StartupSupport
import StartupTestSupport
import Testing

@testable import StartupKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Blocking commands run on StartupKit's own threads: never on Swift's cooperative pool, never
/// more at once than the pool's threads, abandoned after their timeout, traced where they run.
@Suite(.timeLimit(.minutes(1))) struct BlockingCommandTests {
    /// Blocking commands that wait on something only an async command can release: more of them
    /// than Swift's cooperative pool has threads. On that pool they would hold every thread, the
    /// releasing command would never run, and the run would never end.
    @Test func moreBlockingCommandsThanTheCooperativePoolHasThreads_allFinish() async throws {
        let count = max(sysconf(Int32(_SC_NPROCESSORS_ONLN)), 1) + 2
        let released = DispatchSemaphore(value: 0)
        var builder = StartupPlanBuilder()
        for index in 0..<count {
            builder.addBlocking(CommandID("sdk\(index)")) { _ in released.wait() }
        }
        builder.add("release") { _ in
            for _ in 0..<count { released.signal() }
        }
        let report = await StartupOrchestrator(try builder.build(), options: .init(blockingThreads: count)).run()
        #expect(report.status == .succeeded)
        #expect(report.commands.filter(\.ranOnBlockingPool).count == count)
        #expect(report["release"]?.ranOnBlockingPool == false)
    }

    @Test func thePool_neverRunsMoreThanItsThreads_andRunsEverything() {
        let pool = ThreadPool(maxThreads: 2)
        let running = Locked((now: 0, most: 0))
        let started = DispatchSemaphore(value: 0)
        let go = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        for _ in 0..<6 {
            pool.submit {
                running.withLock {
                    $0.now += 1
                    $0.most = max($0.most, $0.now)
                }
                started.signal()
                go.wait()
                running.withLock { $0.now -= 1 }
                done.signal()
            }
        }
        started.wait()
        started.wait()
        #expect(pool.threadCount == 2, "two threads for six pieces of work")
        for _ in 0..<6 { go.signal() }
        for _ in 0..<6 { done.wait() }
        #expect(running.withLock { $0.most } == 2)
    }

    /// Work submitted at once gets a thread each, up to the most: the submitter starts the first,
    /// and each new thread the next.
    @Test func workSubmittedAtOnce_getsAThreadEach_upToTheMost() {
        let pool = ThreadPool(maxThreads: 4)
        let started = DispatchSemaphore(value: 0)
        let go = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        for _ in 0..<5 {
            pool.submit {
                started.signal()
                go.wait()
                done.signal()
            }
        }
        // Bounded, so that a pool that starts too few threads fails rather than hangs.
        let allStarted = (0..<4).allSatisfy { _ in started.wait(timeout: .now() + .seconds(10)) == .success }
        #expect(allStarted, "four pieces of work running at once")
        #expect(pool.threadCount == 4, "four at once; the fifth waits for one of them")
        for _ in 0..<5 { go.signal() }
        for _ in 0..<5 { done.wait() }
    }

    @Test func aBlockingCommandsTimeout_abandonsItAfterTheGrace_andTheRunGoesOn() async throws {
        let clock = ManualClock()
        let stuck = DispatchSemaphore(value: 0)
        var builder = StartupPlanBuilder()
        builder.addBlocking("keychain", options: .init(timeout: .milliseconds(200))) { _ in stuck.wait() }
        builder.add("session", dependsOn: ["keychain"]) { _ in }
        builder.addBlocking("analytics") { _ in }
        let orchestrator = StartupOrchestrator(try builder.build(), options: .init(cancellationGrace: .milliseconds(50)), clock: clock)
        let reporting = Task { await orchestrator.run() }

        await clock.sleepers(atLeast: 1)  // the timeout
        clock.advance(by: .milliseconds(200))
        await clock.sleepers(atLeast: 1)  // the grace
        clock.advance(by: .milliseconds(50))
        let report = await reporting.value

        #expect(report["keychain"]?.status == .timedOut(after: .milliseconds(200)))
        #expect(report["keychain"]?.isAbandoned == true)
        #expect(report["session"]?.status == .skipped(SkipReason(failedCommand: "keychain", dependency: "keychain")))
        #expect(report["analytics"]?.status == .succeeded)
        stuck.signal()  // Its thread finishes on its own.
    }

    /// An abandoned attempt still holds its pool thread: the next blocking command gets another one rather than
    /// waiting behind it (with one thread, it would never start).
    @Test func afterAnAbandonedAttempt_theNextBlockingCommandStillGetsAThread() async throws {
        let clock = ManualClock()
        let stuck = DispatchSemaphore(value: 0)
        var builder = StartupPlanBuilder()
        builder.addBlocking("hangs", options: .init(timeout: .milliseconds(100))) { _ in stuck.wait() }
        builder.addBlocking("next") { _ in }
        let orchestrator = StartupOrchestrator(
            try builder.build(), options: .init(cancellationGrace: .milliseconds(10), blockingThreads: 1), clock: clock)
        let reporting = Task { await orchestrator.run() }
        await clock.sleepers(atLeast: 1)  // the timeout
        clock.advance(by: .milliseconds(100))
        await clock.sleepers(atLeast: 1)  // the grace
        clock.advance(by: .milliseconds(10))
        let report = await reporting.value
        #expect(report["hangs"]?.isAbandoned == true)
        #expect(report["next"]?.status == .succeeded)
        stuck.signal()
    }

    @Test func aBlockingCommandsOutput_isReadByItsDependents_andThroughTheRun() async throws {
        struct Keychain: BlockingStartupCommand {
            static let id: CommandID = "keychain"
            func execute(_ context: StartupContext) throws -> String { "token" }
        }
        var builder = StartupPlanBuilder()
        builder.add(Keychain())
        builder.add("session", dependsOn: [Keychain.id]) { context in try context.output(of: Keychain.self) + "!" }
        let run = StartupOrchestrator(try builder.build()).start()
        try await run.wait(for: Keychain.self)
        #expect(try await run.output(of: Keychain.self) == "token")
        #expect(try await run.output(of: "session", as: String.self) == "token!")
    }

    @Test func aBlockingCommandThatThrows_failsAndIsRetried() async throws {
        struct Flaky: Error {}
        let attempts = Locked(0)
        var builder = StartupPlanBuilder()
        builder.addBlocking("flaky", options: .init(retry: .retry(times: 1, initialDelay: .zero))) { _ in
            if attempts.withLock({
                $0 += 1
                return $0
            }) == 1 {
                throw Flaky()
            }
        }
        let report = await StartupOrchestrator(try builder.build()).run()
        #expect(report["flaky"]?.status == .succeeded)
        #expect(report["flaky"]?.attempts == 2)
    }

    @Test(arguments: RandomGraph.all(seeds: 12))
    func randomLaunches_runEachOnceAfterItsDependencies_withinTheSlotsAndThreads(graph: RandomGraph) async throws {
        let log = EventLog()
        let blockingLog = EventLog()
        let slots = Int(graph.seed % 4) + 1
        let threads = Int(graph.seed % 3) + 1
        var builder = StartupPlanBuilder()
        for index in 0..<graph.count {
            let id = RandomGraph.id(index)
            let dependencies = graph.dependencies[index].map(RandomGraph.id)
            let options = CommandOptions(priority: CommandPriority(graph.priorities[index]))
            if (index + Int(graph.seed)) % 2 == 0 {
                builder.addBlocking(id, dependsOn: dependencies, options: options) { _ in
                    log.start(index)
                    blockingLog.start(index)
                    sched_yield()
                    blockingLog.finish(index)
                    log.finish(index)
                }
            } else {
                builder.add(id, dependsOn: dependencies, options: options) { _ in
                    log.start(index)
                    await Task.yield()
                    log.finish(index)
                }
            }
        }
        let run = StartupOrchestrator(try builder.build(), options: .init(maxConcurrency: slots, blockingThreads: threads)).start()
        try await run.wait(for: [RandomGraph.id(graph.count - 1)])
        let report = await run.report()
        #expect(report.status == .succeeded)
        #expect(log.expectEachStartedOnceAfterItsDependencies(in: graph).count == graph.count)
        #expect(log.maxRunning <= slots, "\(log.maxRunning) at once with \(slots) slots in \(graph)")
        #expect(blockingLog.maxRunning <= threads, "\(blockingLog.maxRunning) blocking at once with \(threads) threads in \(graph)")
    }

    /// Read as the task's base priority: the Linux runtime reports a child task's
    /// `currentPriority` as its parent's, while the tasks it creates inherit the base priority.
    @Test func theEffectivePriority_isTheTaskPriorityItsWorkRunsAt() async throws {
        let seen = Locked<[CommandID: TaskPriority]>([:])
        var builder = StartupPlanBuilder()
        builder.add("config") { context in seen.withLock { $0[context.commandID] = Task.basePriority ?? .background } }
        builder.add("screen", dependsOn: ["config"], options: .init(priority: .high)) { context in
            seen.withLock { $0[context.commandID] = Task.basePriority ?? .background }
        }
        builder.add("warm") { context in seen.withLock { $0[context.commandID] = Task.basePriority ?? .background } }
        builder.add("cleanup", options: .init(priority: .low)) { context in
            seen.withLock { $0[context.commandID] = Task.basePriority ?? .background }
        }
        let plan = try builder.build()
        _ = await StartupOrchestrator(plan).run()
        #expect(seen.withLock { $0 } == ["config": .high, "screen": .high, "warm": .medium, "cleanup": .utility])
        #expect(plan.effectivePriority(of: "config") == .high)
    }
}
