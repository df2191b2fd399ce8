import StartupSupport

/// A ready service across its restarts: it keeps the service running as its ``RestartPolicy``
/// says, carries out the moves asked for by hand (``restartByHand()``, ``stopByHand()``,
/// ``startByHand()``), and it is what the shutdown stops, whichever incarnation runs then, or
/// the wait before the next one.
///
/// The worker that started the service drives it (``superviseUntilEnd(restart:announce:)``); the
/// moves by hand and the shutdown ask, and the driver does. Each incarnation is a
/// ``ServiceAttempt``.
final class ServiceSupervisor: Sendable {
    /// What runs now.
    private enum Current: Sendable {
        /// This incarnation: serving (`isReady`), or, after a restart, starting.
        case running(ServiceAttempt, isReady: Bool)
        /// None: the delay before the next restart the policy allows.
        case waiting(Task<Void, Never>)
        /// None: stopped by hand (or failed to start again by hand), until it is started by hand
        /// (`true`) or the run shuts down (`false`).
        case stoppedByHand(OneShot<Bool>)
    }

    /// A move asked for by hand, carried out when the incarnation that runs has ended.
    private enum Move: Sendable {
        case restart
        case stop
    }

    private struct State: Sendable {
        var current: Current
        var stopRequested = false
        /// No restart starts any more (the run's shutdown has begun), though this service's own
        /// stop may come later.
        var restartsEnded = false
        /// The run has recorded the supervision's end: no move by hand is carried out any more.
        var isOver = false
        /// The move asked for by hand and not carried out yet, with when it was asked for.
        var move: (Move, askedAt: Duration)?
        /// Told once the move is carried out.
        var moveWaiters: [OneShot<HandOutcome>] = []
        /// Told once the incarnation now starting is ready, or has ended before it was.
        var startWaiters: [OneShot<HandOutcome>] = []
    }

    /// How a move by hand came out.
    enum HandOutcome: Sendable {
        /// Done: stopped in `stop`, and (a restart or a start) ready again after `start`.
        case done(stop: Duration, start: Duration)
        /// Its new incarnation ended before it was ready, with this error; it stays stopped.
        case notReady(any Error)
        /// It was stopped by hand before it was ready.
        case stoppedByHand
        /// The run is shutting down, or the service has ended for good.
        case over
    }

    /// How the supervision ended, for ``endRecorded(_:)``.
    enum Final: Sendable {
        /// This incarnation ended as it says.
        case incarnation(ServiceAttempt, ServiceAttempt.Ending)
        /// It ended between two incarnations, in a restart's delay or stopped by hand: stopped
        /// there (`nil`) by its stop or the run's shutdown, or left without its restart when the
        /// start-up was stopped (its last end).
        case betweenIncarnations(ServiceEndedError?)
    }

    /// The service's identifier.
    let id: CommandID
    private let policy: RestartPolicy
    private let clock: StartedClock
    /// Guards which incarnation is current, whether the stop was asked for and the moves asked
    /// for by hand: the driver swaps the incarnation and the askers read it in one step, so no
    /// incarnation starts unseen by a stop.
    private let state: Locked<State>
    /// Settled once the run has recorded an end between two incarnations; the stop waits for it.
    private let recordedBetween = OneShot<ServiceEndedError?>()

    /// Supervises a service whose `first` attempt is ready.
    init(id: CommandID, policy: RestartPolicy, clock: StartedClock, first: ServiceAttempt) {
        self.id = id
        self.policy = policy
        self.clock = clock
        state = Locked(State(current: .running(first, isReady: true)))
    }

    /// What the driver does after an incarnation's start.
    private enum StartResult {
        case ready(ServiceAttempt)
        /// It ended before it was ready, with this outcome (not stopped).
        case ended(ServiceAttempt, AttemptOutcome)
        /// It was stopped by hand while starting: it stays stopped.
        case stoppedByHand
        /// It was stopped while starting (the service's stop, the shutdown, the worker's
        /// cancellation): the supervision ends with it.
        case stopped(ServiceAttempt, AttemptOutcome)
        /// The stop or the shutdown came first: it never started.
        case notStarted
    }

    /// Where the driver is.
    private enum Phase {
        /// The incarnation serves until it ends.
        case serving
        /// A restart or start by hand: the next incarnation starts now, after a stop that took
        /// `stopTook`; if the stop or the shutdown came first, the supervision ends as
        /// `ifNotStarted` says.
        case startingByHand(stopTook: Duration, ifNotStarted: Final)
        /// Stopped by hand, until it is started by hand or the run shuts down.
        case stoppedByHand
        /// It ended by itself (`ended`, as `ending` says): restarted if its policy allows.
        case restartingByPolicy(ended: ServiceEndedError, ending: ServiceAttempt.Ending)
    }

    /// Waits until the service has ended for good, restarting it after each end its policy
    /// allows: after the delay, a new incarnation is started by `restart` (with the
    /// incarnation's number, from 1) and counted as running again once it is ready, or as
    /// ended again if it is not. `announce` is called with each end that a restart follows.
    /// Moves by hand are carried out here too, and count nothing against the policy. The stop,
    /// the run's shutdown (``endRestarts()``) or the worker's cancellation ends the
    /// supervision, with no further restart.
    ///
    /// - Returns: The error of the service's last end if it ended by itself (`nil` if stopped),
    ///   and what ``endRecorded(_:)`` must settle once the run has recorded it.
    func superviseUntilEnd(
        restart: (ServiceAttempt, Int) async -> ServiceAttempt.Start,
        announce: (ServiceEndedError) -> Void
    ) async -> (endedByItself: ServiceEndedError?, final: Final) {
        guard case .running(var attempt, _) = state.withLock({ $0.current }) else {
            preconditionFailure("supervision begins with a ready attempt")
        }
        var incarnation = 0
        var policyRestarts = 0
        var phase = Phase.serving
        while true {
            switch phase {
            case .serving:
                let ending = await attempt.untilEnded()
                let endedAt = clock.elapsed()
                if let (move, askedAt, waiters) = takeMove() {
                    switch move {
                    case .restart:
                        state.withLock { $0.startWaiters += waiters }
                        phase = .startingByHand(stopTook: max(endedAt - askedAt, .zero), ifNotStarted: .incarnation(attempt, ending))
                    case .stop:
                        for waiter in waiters { waiter.resolve(.done(stop: max(endedAt - askedAt, .zero), start: .zero)) }
                        phase = .stoppedByHand
                    }
                    continue
                }
                guard let ended = attempt.endedByItself(ending) else { return (nil, .incarnation(attempt, ending)) }
                phase = .restartingByPolicy(ended: ended, ending: ending)
            case .startingByHand(let stopTook, let ifNotStarted):
                incarnation += 1
                switch await startNext(incarnation, stopTook: stopTook, restart: restart) {
                case .ready(let next):
                    attempt = next
                    phase = .serving
                case .ended, .stoppedByHand:
                    phase = .stoppedByHand  // Those who asked were told.
                case .stopped(let next, let outcome):
                    return (nil, .incarnation(next, .returned(outcome.stopResult, stopRequested: true)))
                case .notStarted:
                    return (nil, ifNotStarted)
                }
            case .stoppedByHand:
                guard await staysStoppedUntilStarted() else { return (nil, .betweenIncarnations(nil)) }
                phase = .startingByHand(stopTook: .zero, ifNotStarted: .betweenIncarnations(nil))
            case .restartingByPolicy(let ended, let ending):
                policyRestarts += 1
                guard policy.restarts(afterFailure: ended.underlying != nil, restart: policyRestarts),
                    !(ended.underlying is any NonRetryableError)
                else {
                    return (ended, .incarnation(attempt, ending))
                }
                let delay = policy.delay(beforeRestart: policyRestarts)
                let waiting = Task { [clock] in _ = try? await clock.sleep(delay) }
                let cancelled = Task.isCancelled
                let waits = state.withLock { state in
                    guard !state.stopRequested, !state.restartsEnded, !cancelled else { return false }
                    state.current = .waiting(waiting)
                    return true
                }
                // A stop that came first waits for this incarnation's end: it ended by itself. So does
                // a shutdown that began, or a start-up that stopped, before it.
                guard waits else {
                    waiting.cancel()
                    return (ended, .incarnation(attempt, ending))
                }
                announce(
                    ServiceEndedError(
                        service: id, wasReady: ended.wasReady, underlying: ended.underlying,
                        restart: ServiceEndedError.Restart(number: policyRestarts, limit: policy.limit, delay: delay)))
                await withTaskCancellationHandler {
                    await waiting.value
                } onCancel: {
                    waiting.cancel()
                }
                switch afterDelay(cancelled: Task.isCancelled) {
                case .stopped:
                    return (nil, .betweenIncarnations(nil))
                case .leftEnded:
                    return (ended, .betweenIncarnations(ended))
                case .staysStopped:
                    phase = .stoppedByHand
                case .starts:
                    incarnation += 1
                    switch await startNext(incarnation, stopTook: .zero, restart: restart) {
                    case .ready(let next):
                        attempt = next
                        phase = .serving
                    case .ended(let next, let outcome):
                        let error = outcome.error(service: id)
                        attempt = next
                        phase = .restartingByPolicy(
                            ended: ServiceEndedError(service: id, wasReady: false, underlying: error),
                            ending: .returned(.failure(error), stopRequested: false))
                    case .stoppedByHand:
                        phase = .stoppedByHand
                    case .stopped(let next, let outcome):
                        // Its stop's own failure (a stop line that failed, a second interrupt) is what it reports.
                        return (nil, .incarnation(next, .returned(outcome.stopResult, stopRequested: true)))
                    case .notStarted:
                        return (nil, .betweenIncarnations(nil))
                    }
                }
            }
        }
    }

    /// The move asked for by hand, if any, with when it was asked for and who waits for it.
    private func takeMove() -> (Move, Duration, [OneShot<HandOutcome>])? {
        state.withLock { state in
            guard let (move, askedAt) = state.move else { return nil }
            defer {
                state.move = nil
                state.moveWaiters = []
            }
            return (move, askedAt, state.moveWaiters)
        }
    }

    /// What a restart the policy allows does after its delay: a shutdown that began during it
    /// stops the service there, as its stop would; a stop by hand keeps it stopped (those who
    /// asked are told); a restart by hand waits for this restart.
    private func afterDelay(cancelled: Bool) -> RestartStart {
        let (start, told) = state.withLock { state -> (RestartStart, [OneShot<HandOutcome>]) in
            if state.stopRequested || state.restartsEnded { return (.stopped, []) }
            if cancelled { return (.leftEnded, []) }
            guard let (move, _) = state.move else { return (.starts, []) }
            defer {
                state.move = nil
                state.moveWaiters = []
            }
            switch move {
            case .restart:
                state.startWaiters += state.moveWaiters
                return (.starts, [])
            case .stop:
                return (.staysStopped, state.moveWaiters)
            }
        }
        for waiter in told { waiter.resolve(.done(stop: .zero, start: .zero)) }
        return start
    }

    /// Starts incarnation `number`, unless the stop or the shutdown came first, and tells those
    /// waiting for it how it came out (with `stopTook`, the stop of the incarnation before).
    private func startNext(
        _ number: Int, stopTook: Duration, restart: (ServiceAttempt, Int) async -> ServiceAttempt.Start
    ) async -> StartResult {
        let next = ServiceAttempt(id: id)
        let cancelled = Task.isCancelled
        let starts = state.withLock { state in
            guard !state.stopRequested, !state.restartsEnded, !cancelled else { return false }
            state.current = .running(next, isReady: false)
            return true
        }
        guard starts else { return .notStarted }
        let began = clock.elapsed()
        let start = await restart(next, number)
        let took = clock.elapsed() - began
        let cancelledWhileStarting = Task.isCancelled
        let (result, told, waiters, stopWaiters) = state.withLock {
            state -> (StartResult, HandOutcome, [OneShot<HandOutcome>], [OneShot<HandOutcome>]) in
            let waiters = state.startWaiters
            state.startWaiters = []
            switch start {
            case .ready:
                state.current = .running(next, isReady: true)
                return (.ready(next), .done(stop: stopTook, start: took), waiters, [])
            case .ended(let outcome):
                if cancelledWhileStarting || state.stopRequested || state.restartsEnded {
                    return (.stopped(next, outcome), .over, waiters, [])
                }
                guard case (.stop, _)? = state.move else {
                    return (.ended(next, outcome), .notReady(outcome.error(service: id)), waiters, [])
                }
                defer {
                    state.move = nil
                    state.moveWaiters = []
                }
                return (.stoppedByHand, .stoppedByHand, waiters, state.moveWaiters)
            }
        }
        for waiter in waiters { waiter.resolve(told) }
        for waiter in stopWaiters { waiter.resolve(.done(stop: took, start: .zero)) }
        return result
    }

    /// Keeps the service stopped until it is started by hand (`true`) or the run shuts down.
    private func staysStoppedUntilStarted() async -> Bool {
        let parked = OneShot<Bool>()
        let cancelled = Task.isCancelled
        let parks = state.withLock { state in
            guard !state.stopRequested, !state.restartsEnded, !cancelled else { return false }
            state.current = .stoppedByHand(parked)
            return true
        }
        guard parks else { return false }
        return await withTaskCancellationHandler {
            await parked.value()
        } onCancel: {
            parked.resolve(false)
        }
    }

    /// The run has recorded the end ``superviseUntilEnd(restart:announce:)`` returned: the stop
    /// may report it, and moves by hand are refused from now on.
    func endRecorded(_ final: Final) {
        let waiters = state.withLock { state in
            state.isOver = true
            defer {
                state.moveWaiters = []
                state.startWaiters = []
            }
            return state.moveWaiters + state.startWaiters
        }
        for waiter in waiters { waiter.resolve(.over) }
        switch final {
        case .incarnation(let attempt, let ending): attempt.endRecorded(ending)
        case .betweenIncarnations(let ended): recordedBetween.resolve(ended)
        }
    }

    /// No restart starts from now on, though the service is stopped only in its turn: the
    /// run's shutdown has begun, as its owner (the run's scheduler) says.
    func endRestarts() {
        state.withLock { $0.restartsEnded = true }
    }

    /// What a restart the policy allows does after its delay.
    private enum RestartStart {
        case starts
        /// The stop, or the run's shutdown, came during the delay.
        case stopped
        /// The start-up was stopped during the delay: the service stays ended.
        case leftEnded
        /// Stopped by hand during the delay: it stays stopped.
        case staysStopped
    }

    /// What a move by hand does first, decided under the lock and done outside it.
    private enum Asking {
        /// Stop this incarnation; the driver does the rest.
        case stopIncarnation(ServiceAttempt)
        /// End the delay before a restart the policy allows.
        case endDelay(Task<Void, Never>)
        /// Start it again: it was stopped by hand.
        case resume(OneShot<Bool>)
        /// Wait: the move is under way.
        case wait
        /// Nothing to do: it is as asked already.
        case done
        /// Refused: the run is shutting down, or the service has ended for good.
        case over
    }

    /// Restarts the service by hand: stops the incarnation that runs as the shutdown would (its
    /// task cancelled), then starts a new one, and returns once it is ready. A service starting
    /// already (a restart under way) is waited for instead; one stopped by hand, or waiting for
    /// a restart its policy allows, is started now. Counts nothing against the restart policy.
    func restartByHand() async -> HandOutcome {
        await ask(.restart)
    }

    /// Stops the service by hand, as the shutdown would (its task cancelled), and keeps it
    /// stopped until ``startByHand()`` or the run's shutdown; the run goes on. Returns once it
    /// has stopped.
    func stopByHand() async -> HandOutcome {
        await ask(.stop)
    }

    /// Starts again a service stopped by hand and returns once it is ready; one that serves
    /// already is left as it is, one starting is waited for.
    func startByHand() async -> HandOutcome {
        await ask(nil)
    }

    /// Asks for `move` (`nil`: a start) and waits until it is carried out.
    private func ask(_ move: Move?) async -> HandOutcome {
        let reply = OneShot<HandOutcome>()
        let askedAt = clock.elapsed()
        let asking = state.withLock { state -> Asking in
            if state.stopRequested || state.restartsEnded || state.isOver { return .over }
            switch (state.current, move) {
            case (.running(_, isReady: true), nil):
                return .done
            case (.running(_, isReady: false), nil), (.running(_, isReady: false), .restart?), (.waiting, nil):
                state.startWaiters.append(reply)
                return .wait
            case (.running(let attempt, _), let move?):
                state.moveWaiters.append(reply)
                guard state.move == nil else {
                    // A move under way: the later one is carried out, and tells both.
                    state.move?.0 = move
                    return .wait
                }
                state.move = (move, askedAt)
                return .stopIncarnation(attempt)
            case (.waiting(let delay), let move?):
                state.move = (move, askedAt)
                state.moveWaiters.append(reply)
                return .endDelay(delay)
            case (.stoppedByHand(let parked), nil), (.stoppedByHand(let parked), .restart?):
                state.startWaiters.append(reply)
                return .resume(parked)
            case (.stoppedByHand, .stop?):
                return .done
            }
        }
        switch asking {
        case .over: return .over
        case .done: return .done(stop: .zero, start: .zero)
        case .stopIncarnation(let attempt): attempt.stopByHand()
        case .endDelay(let delay): delay.cancel()
        case .resume(let parked): parked.resolve(true)
        case .wait: break
        }
        return await reply.value()
    }

    /// How many moves by hand wait to be carried out (for tests).
    var waitingMoves: Int {
        state.withLock { $0.moveWaiters.count + $0.startWaiters.count }
    }

    /// Stops the service (at shutdown): the incarnation that runs, or the wait for the next one,
    /// and waits until its end is recorded. Cancelling the calling task (the stop's timeout)
    /// abandons a running incarnation.
    ///
    /// - Throws: What ``ServiceAttempt/stop()`` throws.
    func stop() async throws {
        let current = state.withLock { state in
            state.stopRequested = true
            return state.current
        }
        switch current {
        case .running(let attempt, _):
            try await attempt.stop()
        case .waiting(let delay):
            delay.cancel()
            if let endedByItself = await recordedBetween.value() { throw endedByItself }
        case .stoppedByHand(let parked):
            parked.resolve(false)
            if let endedByItself = await recordedBetween.value() { throw endedByItself }
        }
    }
}

extension AttemptOutcome {
    /// What the start of an incarnation that was being stopped reports to its stop: the failure
    /// of the stop itself (a failed stop line, a second interrupt), else success.
    fileprivate var stopResult: Result<Void, any Error> {
        if case .threw(let error) = self, !(error is ServiceEndedError) { .failure(error) } else { .success(()) }
    }

    /// The error of an attempt that did not succeed.
    fileprivate func error(service: CommandID) -> any Error {
        switch self {
        case .threw(let error): error
        case .timedOut(let limit, _): ServiceNotReadyInTime(limit: limit)
        case .succeeded: ServiceEndedError(service: service, wasReady: false, underlying: nil)
        }
    }
}

/// A restarted service that was not ready within its time to ready (``CommandOptions/timeout``).
struct ServiceNotReadyInTime: Error, CustomStringConvertible {
    let limit: Duration

    var description: String { "was not ready within \(DurationText.format(limit))" }
}
