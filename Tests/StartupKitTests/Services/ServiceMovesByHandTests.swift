import StartupKitTesting
import StartupTestSupport
import Testing

@testable import StartupKit

/// Moves by hand on a ready service (`StartupRun.restartService`, `stopService`, `startService`):
/// each stops an incarnation as the shutdown would and starts the next with the same readiness,
/// its dependents keep running, nothing counts against the restart policy, and a service stopped
/// by hand stays stopped, without ending the run, until it is started again. The services serve
/// until cancelled; no sleeps, no clock.
@Suite(.timeLimit(.minutes(1))) struct ServiceMovesByHandTests {
    struct Boom: Error, CustomStringConvertible {
        var description: String { "boom" }
    }

    /// A `worker` service that logs each incarnation's start and stop, and a `client` that
    /// depends on it; `failing` incarnations throw before they are ready.
    static func plan(restart: RestartPolicy = .never, log: Log, failing: Set<Int> = []) throws -> StartupPlan {
        var builder = StartupPlanBuilder()
        builder.addService("worker", options: .init(restart: restart)) { context, ready in
            log.append("worker \(context.restart) starts")
            if failing.contains(context.restart) { throw Boom() }
            ready()
            do { try await hangUntilCancelled() } catch { log.append("worker \(context.restart) stopped") }
        }
        builder.addService("client", dependsOn: ["worker"]) { _, ready in
            log.append("client starts")
            ready()
            do { try await hangUntilCancelled() } catch { log.append("client stopped") }
        }
        builder.add("setup") { _ in }
        return try builder.build()
    }

    @Test func aRestartByHand_stopsTheIncarnation_startsTheNext_andLeavesTheDependentRunning() async throws {
        let log = Log()
        let run = StartupOrchestrator(try Self.plan(log: log)).start()
        try await run.wait(for: ["client"])

        try await run.restartService("worker")
        #expect(log.entries == ["worker 0 starts", "client starts", "worker 0 stopped", "worker 1 starts"])
        try await run.restartService("worker")
        #expect(log.entries.suffix(2) == ["worker 1 stopped", "worker 2 starts"], "with no restart policy at all")

        let stopped = await run.shutdown()
        #expect(stopped.status == .succeeded)
        #expect(stopped.stopOrder == ["client", "worker"])
        #expect(log.entries.suffix(2) == ["client stopped", "worker 2 stopped"])
    }

    @Test func aRestartByHand_saysWhatItsStopTook_byTheRunsClock() async throws {
        let clock = ManualClock()
        let stopping = Gate()
        let mayStop = Gate()
        var builder = StartupPlanBuilder()
        builder.addService("worker") { context, ready in
            ready()
            do { try await hangUntilCancelled() } catch {}
            if context.restart == 0 {
                stopping.open()
                await mayStop.wait()
            }
        }
        let run = StartupOrchestrator(try builder.build(), clock: clock).start()
        try await run.wait(for: ["worker"])
        let restarting = Task { try await run.restartService("worker") }
        await stopping.wait()
        clock.advance(by: .seconds(2))
        mayStop.open()
        let took = try await restarting.value
        #expect(took == ServiceMoveTiming(stopped: .seconds(2), ready: .zero), "the clock moved during the stop alone")
        _ = await run.shutdown()
    }

    @Test func aRestartByHand_countsNothingAgainstThePolicy() async throws {
        let log = Log()
        let crash = Gate()
        var builder = StartupPlanBuilder()
        builder.addService("worker", options: .init(restart: RestartPolicy(limit: 1, delay: .zero))) { context, ready in
            log.append("worker \(context.restart)")
            ready()
            if context.restart == 2 {
                await crash.wait()
                throw Boom()
            }
            try await hangUntilCancelled()
        }
        let run = StartupOrchestrator(try builder.build()).start()
        var events = run.events.makeAsyncIterator()
        try await run.wait(for: ["worker"])
        try await run.restartService("worker")
        try await run.restartService("worker")
        crash.open()
        var restart: ServiceEndedError.Restart?
        while let event = await events.next() {
            if case .serviceEnded(let error, _) = event {
                restart = error.restart
                break
            }
        }
        #expect(restart?.number == 1, "the policy's first restart, after two by hand")
        _ = await run.shutdown()
    }

    @Test func aServiceStoppedByHand_staysStopped_untilStarted_andTheRunGoesOn() async throws {
        let log = Log()
        let run = StartupOrchestrator(try Self.plan(restart: RestartPolicy(delay: .zero), log: log)).start()
        try await run.wait(for: ["client"])

        try await run.stopService("worker")
        #expect(log.entries == ["worker 0 starts", "client starts", "worker 0 stopped"], "not restarted by its policy")
        try await run.stopService("worker")  // stopped already: nothing to do
        try await run.startService("worker")
        #expect(log.entries.last == "worker 1 starts")
        try await run.startService("worker")  // serving already: nothing to do
        #expect(log.entries.count == 4)

        try await run.stopService("worker")
        let stopped = await run.shutdown()
        #expect(stopped.status == .succeeded, "stopped by hand counts as stopped, not failed")
        #expect(stopped["worker"]?.status.isSuccess == true)
        #expect(log.entries.suffix(2) == ["worker 1 stopped", "client stopped"])
    }

    @Test func aRestartWhoseIncarnationIsNotReady_leavesItStopped_andAStartBringsItBack() async throws {
        let log = Log()
        let run = StartupOrchestrator(try Self.plan(log: log, failing: [1])).start()
        try await run.wait(for: ["client"])

        await #expect {
            try await run.restartService("worker")
        } throws: { error in
            let error = error as? ServiceControlError
            return error?.code == .notReadyAgain && error?.description == #""worker" was not ready again: boom; it stays stopped"#
        }
        try await run.startService("worker")
        #expect(log.entries == ["worker 0 starts", "client starts", "worker 0 stopped", "worker 1 starts", "worker 2 starts"])
        let stopped = await run.shutdown()
        #expect(stopped.status == .succeeded)
    }

    @Test func movesOnWhatIsNotARunningService_areRefused_withWhy() async throws {
        let log = Log()
        let run = StartupOrchestrator(try Self.plan(log: log)).start()
        try await run.wait(for: ["client"])

        await #expect {
            try await run.restartService("workr")
        } throws: { error in
            let error = error as? ServiceControlError
            return error?.code == .unknownCommand && error?.description == #"the plan has no command "workr"; did you mean "worker"?"#
        }
        await #expect {
            try await run.stopService("setup")
        } throws: { error in
            (error as? ServiceControlError)?.description == #""setup" is a command, not a service"#
        }
        _ = await run.shutdown()
        await #expect {
            try await run.restartService("worker")
        } throws: { error in
            (error as? ServiceControlError)?.code == .notRunning
        }
    }

    @Test func aRestartOfAServiceNotReadyYet_waitsForItsFirstStart_anddoesNotDoubleIt() async throws {
        let log = Log()
        let release = Gate()
        var builder = StartupPlanBuilder()
        builder.add("config") { _ in await release.wait() }
        builder.addService("worker", dependsOn: ["config"]) { context, ready in
            log.append("worker \(context.restart) starts")
            ready()
            try await hangUntilCancelled()
        }
        let run = StartupOrchestrator(try builder.build()).start()
        let restarting = Task { try await run.restartService("worker") }
        release.open()
        let took = try await restarting.value
        #expect(took.stopped == .zero)
        #expect(log.entries == ["worker 0 starts"])
        _ = await run.shutdown()
    }

    @Test func aRestartAskedWhileOneIsUnderWay_waitsForIt_andStartsNoSecondIncarnation() async throws {
        let log = Log()
        let stopping = Gate()
        let mayStop = Gate()
        var builder = StartupPlanBuilder()
        builder.addService("worker") { context, ready in
            log.append("worker \(context.restart) starts")
            ready()
            do { try await hangUntilCancelled() } catch {}
            if context.restart == 0 {
                stopping.open()
                await mayStop.wait()
            }
        }
        let run = StartupOrchestrator(try builder.build()).start()
        try await run.wait(for: ["worker"])
        let first = Task { try await run.restartService("worker") }
        await stopping.wait()
        let second = Task { try await run.restartService("worker") }
        let supervisor = try #require(run.scheduler.supervisor(at: 0))
        while supervisor.waitingMoves < 2 { await Task.yield() }  // both asked while the first stop runs
        mayStop.open()
        _ = try await (first.value, second.value)
        #expect(log.entries == ["worker 0 starts", "worker 1 starts"])
        _ = await run.shutdown()
    }

    @Test func theArticlesMoves_runAsWritten() async throws {
        var builder = StartupPlanBuilder()
        builder.addService("search-index") { _, ready in
            ready()
            try await hangUntilCancelled()
        }
        builder.addService("cache") { _, ready in
            ready()
            try await hangUntilCancelled()
        }
        let run = StartupOrchestrator(try builder.build()).start()
        try await run.wait(for: ["search-index", "cache"])
        // As in the article "Services and shutdown".
        let took = try await run.restartService("search-index")  // stopped as at shutdown, started, ready again
        print("search-index: stopped in \(took.stopped), ready in \(took.ready)")
        try await run.stopService("cache")  // stays stopped; the run goes on
        try await run.startService("cache")  // ready again
        let stopped = await run.shutdown()
        #expect(stopped.status == .succeeded && stopped.stopOrder.count == 2)
    }
}
