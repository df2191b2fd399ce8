import StartupKit
import StartupSupport

/// Calls a service's `onReady` exactly once, whichever probe or reader signals first.
final class ReadyLatch: Sendable {
    /// Whether `onReady` has been called (or is being called).
    private let fired = Locked(false)
    private let onReady: @Sendable () -> Void
    /// Raised once ready.
    private let readiness = AwaitableFlag()

    /// A latch that calls `onReady` on the first `signal()`.
    init(_ onReady: @escaping @Sendable () -> Void) {
        self.onReady = onReady
    }

    /// Whether the service has been reported ready.
    var isReady: Bool { fired.withLock { $0 } }

    /// Reports the service ready, the first time only (outside the lock).
    func signal() {
        let first = fired.withLock { fired in
            defer { fired = true }
            return !fired
        }
        if first {
            onReady()
            readiness.raise()
        }
    }

    /// Waits until the service is ready (`true`) or the calling task is cancelled (`false`). One task may wait.
    func untilReady() async -> Bool {
        await readiness.wait()
    }
}
