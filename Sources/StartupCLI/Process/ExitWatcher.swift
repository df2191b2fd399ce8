#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Blocking wait for one specific child, meant to run on a dedicated thread.
enum ExitWatcher {
    /// Blocks until `pid` has exited but leaves it an unreaped zombie (`WNOWAIT`), so its pid and process-group id
    /// stay reserved until it is reaped. Returns 0, or the errno if `pid` cannot be waited for. Never waits on -1.
    static func waitWithoutReaping(_ pid: pid_t) -> Int32 {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1 {
            let code = errno
            if code != EINTR { return code }
        }
        return 0
    }
}
