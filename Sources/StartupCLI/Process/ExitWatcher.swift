import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Waits for one specific child to exit without reaping it, without polling and without blocking a cooperative
/// thread. The child stays an unreaped zombie, so its pid and process-group id stay reserved until it is reaped.
enum ExitWatcher {
    /// How to wait.
    enum Strategy: Sendable {
        /// Linux: a pidfd watched by Dispatch's epoll loop (no thread per child); elsewhere, or if `pidfd_open`
        /// is unavailable or fails, `dedicatedThread`.
        case automatic
        /// A detached thread blocked in `waitid(P_PID, pid, WEXITED | WNOWAIT)`.
        case dedicatedThread
    }

    /// Serial queue on which pidfd readiness handlers run (they only close a descriptor and resume a continuation).
    private static let pidfdQueue = DispatchQueue(label: "StartupCLI.ExitWatcher")

    /// Suspends until `pid` has exited (still unreaped); returns 0, or the errno if `pid` cannot be waited for.
    static func exited(_ pid: pid_t, strategy: Strategy = .automatic) async -> Int32 {
        #if os(Linux)
        if strategy == .automatic, let pidfdOpen = SpawnExtensions.pidfdOpen {
            let descriptor = pidfdOpen(pid, 0)  // pidfds are always close-on-exec
            if descriptor >= 0 {
                if let monitor = PidfdMonitor.shared, await monitor.exited(pidfd: descriptor) == 0 { return 0 }
                return await readable(pidfd: descriptor)
            }
        }
        #endif
        return await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            DedicatedThread.run { continuation.resume(returning: blockUntilExited(pid)) }
        }
    }

    /// Suspends until `pidfd` is readable (its process has exited), then closes it.
    private static func readable(pidfd: Int32) async -> Int32 {
        await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            let source = DispatchSource.makeReadSource(fileDescriptor: pidfd, queue: pidfdQueue)
            // Event handlers are serialised and never run again once `cancel()` was called, so this resumes once.
            source.setEventHandler {
                source.cancel()
                continuation.resume(returning: 0)
            }
            // Dispatch requires the descriptor to stay open until the cancel handler runs.
            source.setCancelHandler { _ = close(pidfd) }
            source.resume()
        }
    }

    /// Blocks the calling (dedicated) thread until `pid` has exited, using `WNOWAIT`. Never waits on -1.
    static func blockUntilExited(_ pid: pid_t) -> Int32 {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1 {
            let code = errno
            if code != EINTR { return code }
        }
        return 0
    }
}
