#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How the engine learns that a child has exited. Either way the child stays an unreaped zombie until the
/// engine reaps it, so its pid and process-group id stay reserved while the engine may still signal them.
enum ExitWatcher {
    /// How to wait.
    enum Strategy: Sendable {
        /// Linux: the child's pidfd in the engine's epoll set (no thread per child); elsewhere, or if
        /// `pidfd_open` is unavailable or fails, `dedicatedThread`. Neither when the engine reads SIGCHLD (see
        /// ``ProcessEngine/ownEveryChild()``): then this strategy and the other one are the same.
        case automatic
        /// A detached thread blocked in `waitid(P_PID, pid, WEXITED | WNOWAIT)` tells the engine.
        case dedicatedThread
    }

    /// Starts a thread that calls `exited` once `pid` has exited (still unreaped), with 0 or the errno of a
    /// failed wait.
    static func watchOnThread(_ pid: pid_t, exited: @escaping @Sendable (Int32) -> Void) {
        DedicatedThread.run { exited(blockUntilExited(pid)) }
    }

    /// Blocks the calling (dedicated) thread until `pid` has exited, using `WNOWAIT`. Never waits on -1.
    private static func blockUntilExited(_ pid: pid_t) -> Int32 {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1 {
            let code = errno
            if code != EINTR { return code }
        }
        return 0
    }
}
