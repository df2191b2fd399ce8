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
    }

    /// How the supervision ended, for ``endRecorded(_:)``.
    enum Final: Sendable {
        /// This incarnation ended as it says.
        case incarnation(ServiceAttempt, ServiceAttempt.Ending)
        /// It was stopped between two incarnations, in a restart's delay.
        case betweenIncarnations
    }

    /// The service's identifier.
    let id: CommandID
    private let policy: RestartPolicy
    private let clock: StartedClock
    /// Guards which incarnation is current and whether the stop was asked for: the worker swaps
    /// the one and the shutdown reads both in one step, so no incarnation starts unseen by a stop.
    private let state: Locked<State>
    /// Settled once the run has recorded an end between two incarnations; the stop waits for it.
    private let recordedBetween = OneShot<Void>()

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
    /// not. `announce` is called with each end that a restart follows. The stop or the worker's
    /// cancellation ends the supervision at once, with no further restart.
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
                let waits = state.withLock { state in
                    guard !state.stopRequested else { return false }
                    state.current = .waiting(waiting)
                    return true
                }
                // A stop that came first waits for this incarnation's end: it ended by itself.
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
                let cancelled = Task.isCancelled
                let starts = state.withLock { state in
                    guard !state.stopRequested, !cancelled else { return false }
                    state.current = .running(next)
                    return true
                }
                guard starts else { return (nil, .betweenIncarnations) }
                switch await restart(next, restarts) {
                case .ready:
                    attempt = next
                case .ended(let outcome):
                    let stopped = Task.isCancelled || state.withLock { $0.stopRequested }
                    guard !stopped else { return (nil, .incarnation(next, .returned(.success(()), stopRequested: true))) }
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
        case .betweenIncarnations: recordedBetween.resolve(())
        }
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
            await recordedBetween.value()
        }
    }
}

extension AttemptOutcome {
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
