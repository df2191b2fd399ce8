/// A ready service across its restarts: it keeps the service running as its ``RestartPolicy``
/// says, and it is what the shutdown stops, whichever incarnation runs then, or the wait before
/// the next one.
///
/// The worker that started the service drives it (``superviseUntilEnd(restart:announce:)``); the
/// shutdown calls ``stop()``. Each incarnation is a ``ServiceAttempt``.
final class ServiceSupervisor: Sendable {
    /// What runs now.
    private enum Current: Sendable {
        /// This incarnation: serving, or, after a restart, starting.
        case running(ServiceAttempt)
        /// None: the delay before the next restart.
        case waiting(Task<Void, Never>)
    }

    private struct State: Sendable {
        var current: Current
        var stopRequested = false
        /// The run's shutdown has begun: no restart starts any more, though this service's own
        /// stop may come later.
        var shutdownBegun = false
    }

    /// How the supervision ended, for ``endRecorded(_:)``.
    enum Final: Sendable {
        /// This incarnation ended as it says.
        case incarnation(ServiceAttempt, ServiceAttempt.Ending)
        /// It ended between two incarnations, in a restart's delay: stopped there (`nil`) by its
        /// stop or the run's shutdown, or left without its restart when the start-up was stopped
        /// (its last end).
        case betweenIncarnations(ServiceEndedError?)
    }

    /// The service's identifier.
    let id: CommandID
    private let policy: RestartPolicy
    private let clock: StartedClock
    /// Guards which incarnation is current and whether the stop was asked for: the worker swaps
    /// the one and the shutdown reads both in one step, so no incarnation starts unseen by a stop.
    private let state: Locked<State>
    /// Settled once the run has recorded an end between two incarnations; the stop waits for it.
    private let recordedBetween = OneShot<ServiceEndedError?>()

    /// Supervises a service whose `first` attempt is ready.
    init(id: CommandID, policy: RestartPolicy, clock: StartedClock, first: ServiceAttempt) {
        self.id = id
        self.policy = policy
        self.clock = clock
        state = Locked(State(current: .running(first)))
    }

    /// Waits until the service has ended for good, restarting it after each end its policy
    /// allows: after the delay, a new incarnation is started by `restart` (with the restart's
    /// number, from 1) and counted as running again once it is ready, or as ended again if it is
    /// not. `announce` is called with each end that a restart follows. The stop, the run's
    /// shutdown (``shutdownBegan()``) or the worker's cancellation ends the supervision, with no
    /// further restart.
    ///
    /// - Returns: The error of the service's last end if it ended by itself (`nil` if stopped),
    ///   and what ``endRecorded(_:)`` must settle once the run has recorded it.
    func superviseUntilEnd(
        restart: (ServiceAttempt, Int) async -> ServiceAttempt.Start,
        announce: (ServiceEndedError) -> Void
    ) async -> (endedByItself: ServiceEndedError?, final: Final) {
        guard case .running(var attempt) = state.withLock({ $0.current }) else {
            preconditionFailure("supervision begins with a ready attempt")
        }
        var restarts = 0
        while true {
            let ending = await attempt.untilEnded()
            guard var ended = attempt.endedByItself(ending) else { return (nil, .incarnation(attempt, ending)) }
            var endOfAttempt = ending
            // Restart until an incarnation is ready again, the policy says no, or the stop comes.
            while true {
                restarts += 1
                guard policy.restarts(afterFailure: ended.underlying != nil, restart: restarts),
                    !(ended.underlying is any NonRetryableError)
                else {
                    return (ended, .incarnation(attempt, endOfAttempt))
                }
                let delay = policy.delay(beforeRestart: restarts)
                let waiting = Task { [clock] in _ = try? await clock.sleep(delay) }
                let cancelled = Task.isCancelled
                let waits = state.withLock { state in
                    guard !state.stopRequested, !state.shutdownBegun, !cancelled else { return false }
                    state.current = .waiting(waiting)
                    return true
                }
                // A stop that came first waits for this incarnation's end: it ended by itself. So does
                // a shutdown that began, or a start-up that stopped, before it.
                guard waits else {
                    waiting.cancel()
                    return (ended, .incarnation(attempt, endOfAttempt))
                }
                announce(
                    ServiceEndedError(
                        service: id, wasReady: ended.wasReady, underlying: ended.underlying,
                        restart: ServiceEndedError.Restart(number: restarts, limit: policy.limit, delay: delay)))
                await withTaskCancellationHandler {
                    await waiting.value
                } onCancel: {
                    waiting.cancel()
                }
                let next = ServiceAttempt(id: id)
                let cancelledInDelay = Task.isCancelled
                let start = state.withLock { state -> RestartStart in
                    // A shutdown that began during the delay stops the service there, as its stop would.
                    if state.stopRequested || state.shutdownBegun { return .stopped }
                    if cancelledInDelay { return .leftEnded }
                    state.current = .running(next)
                    return .starts
                }
                switch start {
                case .stopped: return (nil, .betweenIncarnations(nil))
                case .leftEnded: return (ended, .betweenIncarnations(ended))
                case .starts: break
                }
                switch await restart(next, restarts) {
                case .ready:
                    attempt = next
                case .ended(let outcome):
                    let stopped = Task.isCancelled || state.withLock { $0.stopRequested }
                    // Its stop's own failure (a stop line that failed, a second interrupt) is what it reports.
                    guard !stopped else { return (nil, .incarnation(next, .returned(outcome.stopResult, stopRequested: true))) }
                    let error = outcome.error(service: id)
                    ended = ServiceEndedError(service: id, wasReady: false, underlying: error)
                    attempt = next
                    endOfAttempt = .returned(.failure(error), stopRequested: false)
                    continue
                }
                break
            }
        }
    }

    /// The run has recorded the end ``superviseUntilEnd(restart:announce:)`` returned: the stop
    /// may report it.
    func endRecorded(_ final: Final) {
        switch final {
        case .incarnation(let attempt, let ending): attempt.endRecorded(ending)
        case .betweenIncarnations(let ended): recordedBetween.resolve(ended)
        }
    }

    /// The run's shutdown has begun: no restart starts from now on, though the service is
    /// stopped only in its turn.
    func shutdownBegan() {
        state.withLock { $0.shutdownBegun = true }
    }

    /// What a restart does after its delay.
    private enum RestartStart {
        case starts
        /// The stop, or the run's shutdown, came during the delay.
        case stopped
        /// The start-up was stopped during the delay: the service stays ended.
        case leftEnded
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
        case .running(let attempt):
            try await attempt.stop()
        case .waiting(let delay):
            delay.cancel()
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
