import StartupSupport

/// One attempt of a service: its body runs in a task of its own, so stopping the start-up (which
/// cancels the workers) never cancels a service that is ready; only its own stop does, at
/// shutdown. The worker that started it waits for it to become ready, then for it to end.
final class ServiceAttempt: Sendable {
    /// What the worker hears while the service is starting, in the order it happened.
    private enum StartingEvent: Sendable {
        case ready(any Sendable)
        case returned(Result<Void, any Error>)
        case timeUp
        case graceOver
        /// Its stop ran out of time while it was still starting (a restart): it is left running.
        case stopAbandoned
    }

    /// How the start of a service came out.
    enum Start: Sendable {
        /// It signalled ready with this output; it is serving.
        case ready(any Sendable)
        /// The attempt ended before it was ready.
        case ended(AttemptOutcome)
    }

    /// How a service that was ready ended.
    enum Ending: Sendable {
        /// Its body returned or threw; `stopRequested`: after its stop began (else by itself).
        case returned(Result<Void, any Error>, stopRequested: Bool)
        /// Its stop ran out of time and it was left running.
        case abandoned
    }

    private struct State: Sendable {
        var readySignalled = false
        var stopRequested = false
        var body: Task<Void, Never>?
    }

    /// The service's identifier.
    let id: CommandID
    private let starting: AsyncStream<StartingEvent>
    private let startingContinuation: AsyncStream<StartingEvent>.Continuation
    /// Guards whether ready was signalled, whether a stop was asked for, and the body's task.
    private let state = Locked(State())
    /// Settled when the body ends (or is abandoned); the worker waits for it once ready.
    private let ending = OneShot<Ending>()
    /// Settled once the run has recorded the end; the service's stop waits for it.
    private let recorded = OneShot<Ending>()

    init(id: CommandID) {
        self.id = id
        (starting, startingContinuation) = AsyncStream<StartingEvent>.makeStream()
    }

    /// Called by the ``ReadySignal``: only the first call counts.
    func signalReady(_ output: any Sendable) {
        let first = state.withLock { state in
            defer { state.readySignalled = true }
            return !state.readySignalled
        }
        if first { startingContinuation.yield(.ready(output)) }
    }

    /// Starts the body and waits until the service is ready or its attempt has ended: returned
    /// or threw first, ran out of `timeout` (then it is cancelled and given the run's grace), or
    /// the worker was cancelled (a stop of the start-up; the same grace).
    func start(
        _ context: StartupContext, serve: @escaping @Sendable (StartupContext, ServiceAttempt) async throws -> Void,
        timeout: Duration?, clock: StartedClock
    ) async -> Start {
        // A restart's attempt can be stopped before it starts: then it never starts.
        if state.withLock({ $0.stopRequested }) { return .ended(.threw(CancellationError())) }
        let body = Task {
            let result: Result<Void, any Error>
            do {
                try await serve(context, self)
                result = .success(())
            } catch {
                result = .failure(error)
            }
            let stopRequested = state.withLock { $0.stopRequested }
            startingContinuation.yield(.returned(result))
            startingContinuation.finish()
            ending.resolve(.returned(result, stopRequested: stopRequested))
        }
        // Or just as it starts: then its body is cancelled at once.
        let stopRequested = state.withLock { state in
            state.body = body
            return state.stopRequested
        }
        if stopRequested { body.cancel() }
        let grace = context.run.cancellationGrace
        let timer = timeout.map { timeout in clock.timer(after: timeout) { [startingContinuation] in startingContinuation.yield(.timeUp) } }
        var graceTimer: RunTimer?
        defer {
            timer?.cancel()
            graceTimer?.cancel()
        }
        var timedOut = false
        for await event in starting {
            switch event {
            case .ready(let output) where !timedOut:
                return .ready(output)
            case .ready:
                continue  // Too late: the time to ready ran out first.
            case .returned(let result):
                return .ended(timedOut ? .timedOut(timeout ?? .zero, abandoned: false) : failure(result))
            case .timeUp:
                timedOut = true
                body.cancel()
                graceTimer = clock.timer(after: grace) { [startingContinuation] in startingContinuation.yield(.graceOver) }
            case .graceOver:
                return .ended(.timedOut(timeout ?? .zero, abandoned: true))
            case .stopAbandoned:
                return .ended(.threw(CancellationError()))
            }
        }
        // The worker was cancelled before the service was ready (the start-up is stopping).
        body.cancel()
        let graceOver = clock.timer(after: grace) { [ending] in ending.resolve(.abandoned) }
        defer { graceOver.cancel() }
        switch await ending.value() {
        case .returned(let result, _):
            return .ended(timedOut ? .timedOut(timeout ?? .zero, abandoned: false) : failure(result, cancelled: true))
        case .abandoned:
            return .ended(timedOut ? .timedOut(timeout ?? .zero, abandoned: true) : .threw(CancellationError()))
        }
    }

    /// Waits, once ready, until the body ends or is abandoned; the worker's cancellation does
    /// not end this wait.
    func untilEnded() async -> Ending {
        await ending.value()
    }

    /// The worker has recorded the end with the run: the stop may report it.
    func endRecorded(_ end: Ending) {
        recorded.resolve(end)
    }

    /// Stops the service by hand: cancels its body, whether it is serving or still starting, as
    /// its stop at shutdown would. Its end is not the run's to record: the supervisor that asked
    /// hears it (``untilEnded()``, or the start returning).
    func stopByHand() {
        let body = state.withLock { state in
            state.stopRequested = true
            return state.body
        }
        body?.cancel()
    }

    /// Stops the service (at shutdown): cancels its body, whether it is serving or, as a restart,
    /// still starting, and waits until its end is recorded. Cancelling the calling task (the
    /// stop's timeout) abandons it.
    ///
    /// - Throws: ``ServiceEndedError`` if it had ended by itself before the stop; what its body
    ///   threw while stopping, other than a `CancellationError`.
    func stop() async throws {
        let body = state.withLock { state in
            state.stopRequested = true
            return state.body
        }
        body?.cancel()
        let end = await withTaskCancellationHandler {
            await recorded.value()
        } onCancel: {
            ending.resolve(.abandoned)
            startingContinuation.yield(.stopAbandoned)
        }
        if let endedByItself = endedByItself(end) { throw endedByItself }
        if case .returned(.failure(let error), stopRequested: true) = end, !(error is CancellationError) { throw error }
    }

    /// The error of a ready service that ended without being stopped; `nil` if it was stopped.
    func endedByItself(_ end: Ending) -> ServiceEndedError? {
        guard case .returned(let result, stopRequested: false) = end else { return nil }
        return ServiceEndedError(service: id, wasReady: true, underlying: result.error)
    }

    /// The error of a service that ended while starting: what it threw, or, if it returned,
    /// that it ended before it was ready.
    private func failure(_ result: Result<Void, any Error>, cancelled: Bool = false) -> AttemptOutcome {
        switch result {
        case .failure(let error): .threw(error)
        case .success where cancelled: .threw(CancellationError())
        case .success: .threw(ServiceEndedError(service: id, wasReady: false, underlying: nil))
        }
    }
}

extension Result {
    /// The error, if it is a failure.
    fileprivate var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
