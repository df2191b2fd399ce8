import StartupKit
import StartupSupport

/// A flag raised once, that one task may wait for: a service's process exists, a service is ready.
final class AwaitableFlag: Sendable {
    /// Settled `true` when raised, or `false` when its waiter is cancelled first.
    private let settled = OneShot<Bool>()

    /// Raises the flag; later calls change nothing.
    func raise() {
        settled.resolve(true)
    }

    /// Waits until the flag is raised (`true`) or the calling task is cancelled (`false`, and for good). One task may
    /// wait.
    func wait() async -> Bool {
        await withTaskCancellationHandler {
            await settled.value()
        } onCancel: {
            settled.resolve(false)
        }
    }
}
