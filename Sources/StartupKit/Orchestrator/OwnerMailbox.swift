import StartupSupport

/// The messages to a run's owning task, in the order they were posted. Unlike an `AsyncStream`,
/// cancelling the owner does not end it: a cancelled run still has workers to add, a report to
/// make and services to stop, and only ``finish()`` ends it.
final class OwnerMailbox<Message: Sendable>: Sendable {
    private struct State: Sendable {
        var messages: [Message] = []
        var waiter: CheckedContinuation<Message?, Never>?
        var isFinished = false
    }

    /// Guards the undelivered messages, the waiting owner and whether the mailbox is finished.
    private let state = Locked(State())

    /// Posts a message; the owner is resumed outside the lock.
    func post(_ message: Message) {
        let waiter = state.withLock { state -> CheckedContinuation<Message?, Never>? in
            guard !state.isFinished else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.messages.append(message)
            return nil
        }
        waiter?.resume(returning: message)
    }

    /// No more messages: the owner gets `nil` once it has taken those posted.
    func finish() {
        let waiter = state.withLock { state -> CheckedContinuation<Message?, Never>? in
            state.isFinished = true
            defer { state.waiter = nil }
            return state.messages.isEmpty ? state.waiter : nil
        }
        waiter?.resume(returning: nil)
    }

    /// The next message, or `nil` once finished and drained. One owner only.
    func next() async -> Message? {
        await withCheckedContinuation { continuation in
            let ready: Message?? = state.withLock { state in
                if !state.messages.isEmpty { return .some(state.messages.removeFirst()) }
                if state.isFinished { return .some(nil) }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
