import StartupKit

/// A value set once, by whichever of several causes comes first, and awaited by one task at a
/// time.
final class Latch<Value: Sendable>: Sendable {
    /// Guards the value and the task waiting for it.
    private let state = Locked<(value: Value?, waiter: CheckedContinuation<Value, Never>?)>((nil, nil))

    /// Sets the value, unless it is set already.
    func set(_ value: Value) {
        let waiter = state.withLock { state -> CheckedContinuation<Value, Never>? in
            guard state.value == nil else { return nil }
            state.value = value
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: value)
    }

    /// The value, once it is set. One waiter at a time.
    func wait() async -> Value {
        await withCheckedContinuation { continuation in
            let value = state.withLock { state -> Value? in
                if state.value == nil { state.waiter = continuation }
                return state.value
            }
            if let value { continuation.resume(returning: value) }
        }
    }
}
