import StartupKitTesting
import StartupSupport
import StartupTestSupport
import Testing

@testable import StartupKit

/// Restarts of a ready service that ends by itself (`CommandOptions.restart`): each end the policy
/// allows is reported with the restart that follows, the service starts again after a delay that
/// doubles, its dependents keep running, and past the limit the run shuts down as without a
/// policy. The tests release every crash and every delay by hand: no sleeps, a manual clock.
@Suite(.timeLimit(.minutes(1))) struct ServiceRestartTests {
    struct Boom: Error, CustomStringConvertible {
        var description: String { "boom" }
    }

    /// The incarnations of one service: the test learns when each one is ready and tells it when
    /// to end.
    final class Incarnations: Sendable {
        private let gates = Locked([String: Gate]())

        private func gate(_ name: String) -> Gate {
            gates.withLock { gates in
                if let gate = gates[name] { return gate }
                let gate = Gate()
                gates[name] = gate
                return gate
            }
        }

        /// Called by incarnation `number` once it is ready; returns when the test ends it.
        func serve(_ number: Int) async {
            gate("ready \(number)").open()
            await gate("end \(number)").wait()
        }

        /// Waits until incarnation `number` is ready.
        func ready(_ number: Int) async { await gate("ready \(number)").wait() }

        /// Ends incarnation `number`.
        func end(_ number: Int) { gate("end \(number)").open() }

        /// Says that incarnation `number` has begun to start.
        func began(_ number: Int) { gate("began \(number)").open() }

        /// Waits until incarnation `number` has begun to start.
        func beginning(_ number: Int) async { await gate("began \(number)").wait() }
    }

    /// Starts `builder`'s plan, waits until its `worker` is ready and ends the worker's first incarnation: returns the
    /// run, and its events from before that end.
    static func endingTheFirst<C: Clock>(
        of builder: StartupPlanBuilder, _ incarnations: Incarnations, clock: C = ContinuousClock()
    ) async throws -> (StartupRun, AsyncStream<StartupEvent>.Iterator) where C.Duration == Duration {
        let run = StartupOrchestrator(try builder.build(), clock: clock).start()
        let events = run.events.makeAsyncIterator()
        try await run.wait(for: ["worker"])
        incarnations.end(0)
        return (run, events)
    }

    /// Adds a `worker` service that logs `worker N` as its incarnation N starts, is ready, and throws `Boom` when the
    /// test ends it.
    static func addCrashingWorker(to builder: inout StartupPlanBuilder, restart: RestartPolicy, log: Log, _ incarnations: Incarnations) {
        builder.addService("worker", options: .init(restart: restart)) { context, ready in
            log.append("worker \(context.restart)")
            ready()
            await incarnations.serve(context.restart)
            throw Boom()
        }
    }

    /// Adds a `worker` service, restarted at once, whose first incarnation crashes when the test ends it and whose
    /// restart says it began, then hangs before it is ready until it is cancelled, then runs `cancelled`.
    static func addWorkerWhoseRestartHangs(
        to builder: inout StartupPlanBuilder, _ incarnations: Incarnations, cancelled: @escaping @Sendable () throws -> Void
    ) {
        builder.addService("worker", options: .init(restart: RestartPolicy(delay: .zero))) { context, ready in
            if context.restart == 1 {
                incarnations.began(1)
                do { try await hangUntilCancelled() } catch { try cancelled() }
                return
            }
            ready()
            await incarnations.serve(context.restart)
            throw Boom()
        }
    }

    /// The next `serviceEnded` event.
    static func nextEnd(_ events: inout AsyncStream<StartupEvent>.Iterator) async -> ServiceEndedError? {
        while let event = await events.next() {
            if case .serviceEnded(let error, _) = event { return error }
        }
        return nil
    }

    @Test func aServiceThatCrashes_isRestartedAfterDoublingDelays_untilTheLimit_thenTheRunShutsDown() async throws {
        let clock = ManualClock()
        let incarnations = Incarnations()
        let log = Log()
        var builder = StartupPlanBuilder()
        let policy = RestartPolicy(limit: 2, delay: .milliseconds(100))
        Self.addCrashingWorker(to: &builder, restart: policy, log: log, incarnations)
        builder.addService("api", dependsOn: ["worker"], output: Int.self, run: StartupServiceTests.serving("api", log: log))
        let run = StartupOrchestrator(try builder.build(), clock: clock).start()
        var events = run.events.makeAsyncIterator()
        try await run.wait(for: ["api"])

        incarnations.end(0)
        let first = await Self.nextEnd(&events)
        #expect(first?.restart == ServiceEndedError.Restart(number: 1, limit: 2, delay: .milliseconds(100)))
        #expect(first?.wasReady == true && first?.underlying is Boom)
        #expect(first?.description == #"service "worker" ended by itself after it was ready: boom; restarting in 100ms (1 of 2)"#)
        await clock.sleepers(atLeast: 1)
        clock.advance(by: .milliseconds(100))
        await incarnations.ready(1)

        incarnations.end(1)
        let second = await Self.nextEnd(&events)
        #expect(second?.restart == ServiceEndedError.Restart(number: 2, limit: 2, delay: .milliseconds(200)), "the delay doubles")
        await clock.sleepers(atLeast: 1)
        clock.advance(by: .milliseconds(200))
        await incarnations.ready(2)
        #expect(log.entries == ["worker 0", "api ready", "worker 1", "worker 2"], "the dependent is neither stopped nor restarted")

        incarnations.end(2)
        let last = await Self.nextEnd(&events)
        #expect(last?.restart == nil, "the limit is used up")
        let stopped = await run.shutdown()  // the one the run began
        #expect(stopped.status == .failed)
        #expect(stopped["api"]?.status.isSuccess == true)
        #expect(log.entries.last == "api stopped")
    }

    @Test func onFailure_aServiceThatReturns_isNotRestarted() async throws {
        let incarnations = Incarnations()
        var builder = StartupPlanBuilder()
        builder.addService("worker", options: .init(restart: RestartPolicy(on: .failure, delay: .zero))) { context, ready in
            ready()
            await incarnations.serve(context.restart)
        }
        var (run, events) = try await Self.endingTheFirst(of: builder, incarnations)
        let end = await Self.nextEnd(&events)
        #expect(end?.restart == nil && end?.underlying == nil)
        _ = await run.shutdown()
    }

    @Test func onExit_aServiceThatReturns_isRestarted() async throws {
        let incarnations = Incarnations()
        var builder = StartupPlanBuilder()
        builder.addService("worker", options: .init(restart: RestartPolicy(on: .exit, limit: 1, delay: .zero))) { context, ready in
            ready()
            await incarnations.serve(context.restart)
        }
        var (run, events) = try await Self.endingTheFirst(of: builder, incarnations)
        #expect(await Self.nextEnd(&events)?.restart?.number == 1)
        await incarnations.ready(1)
        let stopping = Task { await run.shutdown() }
        incarnations.end(1)  // the stop's cancellation does not reach a body waiting on a gate
        _ = await stopping.value
    }

    @Test func aShutdownDuringTheDelay_endsIt_andNoIncarnationStarts() async throws {
        let clock = ManualClock()
        let incarnations = Incarnations()
        let log = Log()
        var builder = StartupPlanBuilder()
        Self.addCrashingWorker(to: &builder, restart: RestartPolicy(delay: .seconds(5)), log: log, incarnations)
        var (run, events) = try await Self.endingTheFirst(of: builder, incarnations, clock: clock)
        #expect(await Self.nextEnd(&events)?.restart?.number == 1)
        await clock.sleepers(atLeast: 1)

        let stopped = await run.shutdown()
        #expect(stopped.status == .succeeded, "nothing was running to stop")
        clock.advance(by: .seconds(5))
        #expect(log.entries == ["worker 0"])
    }

    @Test func aShutdownWhileARestartStarts_cancelsIt() async throws {
        let incarnations = Incarnations()
        let log = Log()
        var builder = StartupPlanBuilder()
        Self.addWorkerWhoseRestartHangs(to: &builder, incarnations) { log.append("worker 1 cancelled") }
        var (run, events) = try await Self.endingTheFirst(of: builder, incarnations)
        #expect(await Self.nextEnd(&events)?.restart?.number == 1)
        await incarnations.beginning(1)

        let stopped = await run.shutdown()
        #expect(stopped.status == .succeeded)
        #expect(log.entries == ["worker 1 cancelled"])
    }

    @Test func aCrashDuringTheShutdown_isNotRestarted_andIsReportedAsAnEnd() async throws {
        let incarnations = Incarnations()
        let log = Log()
        let apiStopping = Gate()
        let apiMayStop = Gate()
        var builder = StartupPlanBuilder()
        Self.addCrashingWorker(to: &builder, restart: RestartPolicy(delay: .zero), log: log, incarnations)
        builder.addService("api", dependsOn: ["worker"]) { _, ready in
            ready()
            try? await hangUntilCancelled()
            apiStopping.open()
            await apiMayStop.wait()  // a slow stop: the worker's turn comes after it
        }
        let run = StartupOrchestrator(try builder.build()).start()
        try await run.wait(for: ["api"])
        let stopping = Task { await run.shutdown() }
        await apiStopping.wait()
        incarnations.end(0)  // the worker crashes while the shutdown stops the api
        apiMayStop.open()
        let stopped = await stopping.value
        #expect(log.entries == ["worker 0"], "no restart once the shutdown has begun")
        guard case .failed(let error)? = stopped["worker"]?.status else {
            Issue.record("the worker's crash should be its stop's failure")
            return
        }
        #expect((error as? ServiceEndedError)?.underlying is Boom)
    }

    struct StopLineFailed: Error {}

    @Test func aRestartStoppedWhileItStarts_reportsItsStopsOwnFailure() async throws {
        let incarnations = Incarnations()
        var builder = StartupPlanBuilder()
        Self.addWorkerWhoseRestartHangs(to: &builder, incarnations) { throw StopLineFailed() }
        var (run, events) = try await Self.endingTheFirst(of: builder, incarnations)
        #expect(await Self.nextEnd(&events)?.restart?.number == 1)
        await incarnations.beginning(1)
        let stopped = await run.shutdown()
        guard case .failed(let error)? = stopped["worker"]?.status else {
            Issue.record("the stop's own failure should be reported")
            return
        }
        #expect(error is StopLineFailed)
    }

    @Test func aStartUpStoppedDuringTheDelay_leavesTheServiceEnded_andNoIncarnationStarts() async throws {
        let clock = ManualClock()
        let incarnations = Incarnations()
        let log = Log()
        let failNow = Gate()
        var builder = StartupPlanBuilder()
        Self.addCrashingWorker(to: &builder, restart: RestartPolicy(delay: .seconds(5)), log: log, incarnations)
        builder.add("migrate") { _ in
            await failNow.wait()
            throw Boom()
        }
        let run = StartupOrchestrator(try builder.build(), options: .init(failurePolicy: .failFast), clock: clock).start()
        var events = run.events.makeAsyncIterator()
        try await run.wait(for: ["worker"])
        incarnations.end(0)
        #expect(await Self.nextEnd(&events)?.restart?.number == 1)
        await clock.sleepers(atLeast: 1)  // the restart's delay
        failNow.open()  // fail-fast stops the start-up, and the worker's supervision with it
        let last = await Self.nextEnd(&events)
        #expect(last?.restart == nil && last?.underlying is Boom, "the crash is the worker's end")
        let stopped = await run.shutdown()  // the one its end began
        clock.advance(by: .seconds(5))
        #expect(log.entries == ["worker 0"])
        guard case .failed(let error)? = stopped["worker"]?.status else {
            Issue.record("the worker's crash should be reported, not a clean stop")
            return
        }
        #expect((error as? ServiceEndedError)?.underlying is Boom)
    }

    @Test func aRestartThatFailsBeforeReady_usesUpTheLimit_andEndsTheService() async throws {
        let incarnations = Incarnations()
        var builder = StartupPlanBuilder()
        builder.addService("worker", options: .init(restart: RestartPolicy(limit: 1, delay: .zero))) { context, ready in
            guard context.restart == 0 else { throw Boom() }
            ready()
            await incarnations.serve(0)
            throw Boom()
        }
        var (run, events) = try await Self.endingTheFirst(of: builder, incarnations)
        #expect(await Self.nextEnd(&events)?.restart?.number == 1)
        let last = await Self.nextEnd(&events)
        #expect(last?.restart == nil)
        #expect(last?.wasReady == false && last?.underlying is Boom)
        #expect(await run.shutdown().status == .failed)
    }

    /// The article's queue, stubbed: its connection drops once, then holds until cancelled.
    struct JobQueue {
        static let drops = Locked(1)
        static func connect() async throws -> JobQueue { JobQueue() }
        func process() async throws {
            if Self.drops.withLock({ drops in
                defer { drops -= 1 }
                return drops > 0
            }) {
                throw Boom()
            }
            try await hangUntilCancelled()
        }
    }

    @Test func theArticlesWorker_isStartedAgainAfterItsConnectionDrops() async throws {
        var builder = StartupPlanBuilder()
        // As in the article "Services and shutdown".
        builder.addService("worker", options: CommandOptions(restart: RestartPolicy(on: .failure, limit: 5, delay: .milliseconds(500)))) {
            context, ready in
            let queue = try await JobQueue.connect()
            ready()
            try await queue.process()  // throws when the connection drops: the worker is started again
        }
        let run = StartupOrchestrator(try builder.build()).start()
        var events = run.events.makeAsyncIterator()
        #expect(await Self.nextEnd(&events)?.restart == ServiceEndedError.Restart(number: 1, limit: 5, delay: .milliseconds(500)))
        let stopped = await run.shutdown()
        #expect(stopped.status == .succeeded)
    }

    struct Taken: NonRetryableError {}

    @Test func aNonRetryableError_isNeitherRetriedNorRestarted() async throws {
        let incarnations = Incarnations()
        let attempts = Counter()
        var builder = StartupPlanBuilder()
        builder.add("command", options: .init(retry: RetryPolicy(maxRetries: 3, initialDelay: .zero))) { _ in
            attempts.increment("command")
            throw Taken()
        }
        builder.addService("worker", options: .init(restart: RestartPolicy(delay: .zero))) { context, ready in
            attempts.increment("worker")
            ready()
            await incarnations.serve(context.restart)
            throw Taken()
        }
        var (run, events) = try await Self.endingTheFirst(of: builder, incarnations)
        let end = await Self.nextEnd(&events)
        #expect(end?.restart == nil && end?.underlying is Taken)
        #expect(await run.report()["command"]?.attempts == 1)
        #expect(attempts.counts == ["command": 1, "worker": 1])
        _ = await run.shutdown()
    }

    @Test func theDelay_doubles_upToThirtySeconds_orTheDelayItselfIfLonger() {
        let policy = RestartPolicy(limit: 10, delay: .seconds(5))
        #expect((1...5).map { policy.delay(beforeRestart: $0) } == [.seconds(5), .seconds(10), .seconds(20), .seconds(30), .seconds(30)])
        #expect(RestartPolicy(delay: .seconds(45)).delay(beforeRestart: 3) == .seconds(45))
        #expect(RestartPolicy(delay: .zero).delay(beforeRestart: 9) == .zero)
        #expect(RestartPolicy(limit: 5, delay: .zero).delay(beforeRestart: Int.max) == .zero, "no loop to Int.max")
        #expect(RestartPolicy(limit: 5, delay: .milliseconds(1)).delay(beforeRestart: Int.max) == .seconds(30), "no overflow")
    }

    @Test func theLimitAndTheCondition_decideEachRestart() {
        let onFailure = RestartPolicy(on: .failure, limit: 2)
        #expect(onFailure.restarts(afterFailure: true, restart: 2))
        #expect(!onFailure.restarts(afterFailure: true, restart: 3))
        #expect(!onFailure.restarts(afterFailure: false, restart: 1))
        #expect(RestartPolicy(on: .exit).restarts(afterFailure: false, restart: 1))
        #expect(!RestartPolicy.never.restarts(afterFailure: true, restart: 1))
        #expect(CommandOptions().restart == .never)
    }
}
