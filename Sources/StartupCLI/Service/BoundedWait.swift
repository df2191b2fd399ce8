import Dispatch
import StartupKit
import StartupSupport

/// Waits for a task to finish, or for a limit, or for the waiting task's cancellation, without waiting for the
/// task past that (unlike a task group, whose children must all end).
enum BoundedWait {
    /// `true` when `task` finished within `limit`; `false` at once when `notice` is sent meanwhile.
    static func finishes<Value: Sendable>(
        _ task: Task<Value, Never>, within limit: Duration, unlessSent notice: KillAtOnceNotice
    ) async -> Bool {
        let finished = OneShot<Bool>()
        Task {
            _ = await task.value
            finished.resolve(true)
        }
        DispatchQueue.global().asyncAfter(deadline: .after(limit)) { finished.resolve(false) }
        return await notice.whileWaiting(for: { await finished.value() }, onNotice: { finished.resolve(false) })
    }

    /// Returns once the calling task is cancelled.
    static func untilCancelled() async {
        let waiter = Locked<(cancelled: Bool, continuation: CheckedContinuation<Void, Never>?)>((false, nil))
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let cancelled = waiter.withLock { state in
                    if !state.cancelled { state.continuation = continuation }
                    return state.cancelled
                }
                if cancelled { continuation.resume() }
            }
        } onCancel: {
            waiter.withLock { state in
                state.cancelled = true
                defer { state.continuation = nil }
                return state.continuation
            }?.resume()
        }
    }
}
