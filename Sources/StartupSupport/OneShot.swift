/// A value settled once, by whichever of several racers comes first (a stop returning, its
/// timeout, a cancellation), and awaited by one task. Resolving is synchronous, so it works from a
/// cancellation handler; the waiter is resumed outside the lock.
package final class OneShot<Value: Sendable>: Sendable {
    private enum State: Sendable {
        case pending(CheckedContinuation<Value, Never>?)
        case settled(Value)
    }

    private let state = Locked(State.pending(nil))

    /// A value not settled yet.
    package init() {}

    /// Settles the value unless it is settled already; later calls change nothing.
    ///
    /// - Returns: Whether this call settled it.
    @discardableResult
    package func resolve(_ value: Value) -> Bool {
        let (settled, waiter): (Bool, CheckedContinuation<Value, Never>?) = state.withLock { state in
            guard case .pending(let waiter) = state else { return (false, nil) }
            state = .settled(value)
            return (true, waiter)
        }
        waiter?.resume(returning: value)
        return settled
    }

    /// Waits until the value is settled and returns it. At most one task may wait.
    package func value() async -> Value {
        await withCheckedContinuation { continuation in
            let settled: Value? = state.withLock { state in
                switch state {
                case .settled(let value):
                    return value
                case .pending(let waiter):
                    precondition(waiter == nil, "OneShot supports a single waiter")
                    state = .pending(continuation)
                    return nil
                }
            }
            if let settled { continuation.resume(returning: settled) }
        }
    }
}
