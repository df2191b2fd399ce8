import StartupKit
import StartupSupport

/// A value settled once that any number of tasks may wait for: the end of a shutdown that several `startup down`
/// clients asked for.
final class SharedOutcome<Value: Sendable>: Sendable {
    private enum State: Sendable {
        case pending([CheckedContinuation<Value, Never>])
        case settled(Value)
    }

    /// Guards the value, or those waiting for it.
    private let state = Locked(State.pending([]))

    /// Settles the value unless it is settled already; every waiter is resumed, outside the lock.
    func settle(_ value: Value) {
        let waiters: [CheckedContinuation<Value, Never>] = state.withLock { state in
            guard case .pending(let waiters) = state else { return [] }
            state = .settled(value)
            return waiters
        }
        for waiter in waiters { waiter.resume(returning: value) }
    }

    /// Waits until the value is settled and returns it.
    func value() async -> Value {
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
