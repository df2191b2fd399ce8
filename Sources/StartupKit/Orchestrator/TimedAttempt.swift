import StartupSupport

/// An attempt under a timeout that bounds start-up even when the command ignores cancellation:
/// the command runs in a task of its own, raced against the run's clock. When the time is up it
/// is cancelled; if it has not returned within the run's cancellation grace after that, it is
/// abandoned (left running, its output never used) and the run goes on without it.
///
/// The timers' actions cancel the command and arm the grace themselves, so on a test clock both
/// happen while the clock is advanced, and one advance past the timeout and the grace ends it.
enum TimedAttempt {
    private enum Event: Sendable {
        case returned(Result<any Sendable, any Error>)
        case timeUp
        case graceOver
    }

    /// Runs the attempt; the outcome is `.timedOut` once the time is up, whatever follows.
    ///
    /// - Parameter givesWay: Whether the command's task prefers the ``BackgroundExecutor``: a
    ///   task of its own inherits no executor preference.
    static func run(_ context: StartupContext, timeout: Duration, clock: StartedClock, givesWay: Bool) async -> AttemptOutcome {
        let (events, continuation) = AsyncStream<Event>.makeStream()
        let execute: @Sendable () async -> Result<any Sendable, any Error> = {
            let result = await AttemptRunner.execute(context)
            continuation.yield(.returned(result))
            return result
        }
        let grace = context.run.cancellationGrace
        // Guards the grace's timer once the time is up; `nil` once the attempt is over.
        let graceTimer = Locked<RunTimer?>(RunTimer.none)
        // Guards the command's task once started, and whether the time was up before it was.
        let started = Locked<(command: Task<Result<any Sendable, any Error>, Never>?, isTimeUp: Bool)>((nil, false))
        // Armed before the command starts: on a test clock, a command that sleeps on it must find
        // its timeout there already (``ManualClock/waitUntilCommandsSleep()`` returns once every
        // command sleeps, and an advance would otherwise pass a timeout not yet armed).
        let timer = clock.timer(after: timeout) {
            // Before the cancellation, so the worker learns of the time-out before the return.
            continuation.yield(.timeUp)
            started.withLock { started in
                started.isTimeUp = true
                return started.command
            }?.cancel()
            let armed = clock.timer(after: grace) { continuation.yield(.graceOver) }
            let kept = graceTimer.withLock { stored in
                guard stored != nil else { return false }
                stored = armed
                return true
            }
            if !kept { armed.cancel() }
        }
        let command: Task<Result<any Sendable, any Error>, Never>
        if givesWay, #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            command = Task(executorPreference: BackgroundExecutor.shared, operation: execute)
        } else {
            command = Task(operation: execute)
        }
        let isTimeUp = started.withLock { started in
            started.command = command
            return started.isTimeUp
        }
        if isTimeUp { command.cancel() }
        defer {
            timer.cancel()
            graceTimer.withLock { stored in
                defer { stored = nil }
                return stored
            }?.cancel()
        }
        var timedOut = false
        for await event in events {
            switch event {
            case .returned(let result):
                return timedOut ? .timedOut(timeout, abandoned: false) : AttemptRunner.store(result, of: context)
            case .timeUp:
                timedOut = true
            case .graceOver:
                return .timedOut(timeout, abandoned: true)
            }
        }
        // The worker was cancelled (the run is stopping), which ends the stream: the command is
        // cancelled and given the grace, as after a timeout, so a stop is bounded too.
        command.cancel()
        var stopGrace = RunTimer.none
        let stopped = await FirstOf<Event>.await { first in
            Task { first.resolve(.returned(await command.value)) }
            stopGrace = clock.timer(after: grace) { first.resolve(.graceOver) }
        }
        stopGrace.cancel()
        switch stopped {
        case .returned(let result):
            return timedOut ? .timedOut(timeout, abandoned: false) : AttemptRunner.store(result, of: context)
        case .timeUp, .graceOver:
            return timedOut ? .timedOut(timeout, abandoned: true) : .threw(CancellationError())
        }
    }
}

/// The first of several racing results, awaited whatever the waiting task's cancellation.
private final class FirstOf<Value: Sendable>: Sendable {
    /// Guards the continuation only; it is resumed after leaving the lock.
    private let continuation: Locked<CheckedContinuation<Value, Never>?>

    private init(_ continuation: CheckedContinuation<Value, Never>) {
        self.continuation = Locked(continuation)
    }

    /// Starts the racers with `start` and returns the first value any of them resolves.
    static func await(_ start: (FirstOf<Value>) -> Void) async -> Value {
        await withCheckedContinuation { continuation in start(FirstOf(continuation)) }
    }

    /// Resolves the race with `value` unless it is resolved already.
    func resolve(_ value: Value) {
        let first = continuation.withLock { stored in
            defer { stored = nil }
            return stored
        }
        first?.resume(returning: value)
    }
}
