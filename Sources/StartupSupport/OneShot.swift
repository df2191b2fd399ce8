/// A value settled once, by whichever of several racers comes first (a stop returning, its
/// timeout, a cancellation), and awaited by any number of tasks (the clients of one `startup down`
/// each wait for the same shutdown). Resolving is synchronous, so it works from a cancellation
/// handler; the waiters are resumed outside the lock.
package final class OneShot<Value: Sendable>: Sendable {
    private enum State: Sendable {
        case pending([CheckedContinuation<Value, Never>])
        case settled(Value)
    }

    /// Guards the value, or those waiting for it.
    private let state = Locked(State.pending([]))

    /// A value not settled yet.
    package init() {}

    /// Settles the value unless it is settled already; later calls change nothing.
    ///
    /// - Returns: Whether this call settled it.
    @discardableResult
    package func resolve(_ value: Value) -> Bool {
        let waiters: [CheckedContinuation<Value, Never>]? = state.withLock { state in
            guard case .pending(let waiters) = state else { return nil }
            state = .settled(value)
            return waiters
        }
        for waiter in waiters ?? [] { waiter.resume(returning: value) }
        return waiters != nil
    }

    /// Waits until the value is settled and returns it.
    package func value() async -> Value {
        await withCheckedContinuation { continuation in
            let settled: Value? = state.withLock { state in
                switch state {
                case .settled(let value):
                    return value
                case .pending(var waiters):
                    waiters.append(continuation)
                    state = .pending(waiters)
                    return nil
                }
            }
            if let settled { continuation.resume(returning: settled) }
        }
    }
}
