import StartupSupport

/// A one-shot signal between tasks: `wait()` suspends until `open()` (immediately if already
/// open). Lets tests order events without sleeping.
public final class Gate: Sendable {
    private enum State {
        case closed([CheckedContinuation<Void, Never>])
        case open
    }

    private let state = Locked(State.closed([]))

    /// A closed gate.
    public init() {}

    /// Opens the gate: every waiter, and every later one, goes on.
    public func open() {
        let waiters: [CheckedContinuation<Void, Never>] = state.withLock { state in
            guard case .closed(let waiters) = state else { return [] }
            state = .open
            return waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Suspends until the gate is open.
    public func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow: Bool = state.withLock { state in
                switch state {
                case .open:
                    return true
                case .closed(var waiters):
                    waiters.append(continuation)
                    state = .closed(waiters)
                    return false
                }
            }
            if resumeNow { continuation.resume() }
        }
    }
}

/// Suspends until the task is cancelled, then throws `CancellationError`: a command that hangs.
public func hangUntilCancelled() async throws {
    try await Task.sleep(for: .seconds(3_600))
}
