import Foundation
import Testing

@testable import StartupCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Waits for a process the test does not reap (a grandchild, a command of the binary) to exit, without polling:
/// a pidfd becomes readable when its process exits, zombie or not, so one blocking `poll()` on a thread of its own
/// sees the exit as it happens.
enum ProcessExitWaiter {
    /// `true` once `pid` has exited (a zombie that nobody reaps counts: the container's PID 1 does not reap);
    /// `false` only if it still runs after `failsafe`, which turns a hang into a failure and is never the pass
    /// condition.
    static func waitUntilGone(_ pid: pid_t, failsafe: Duration = .seconds(300)) async -> Bool {
        await awaitPidfd(pid, for: Int16(POLLIN), what: "exit", failsafe: failsafe)
    }

    /// Runs `release` (which makes `pid` exit), then waits until `pid` has been reaped by its parent, without
    /// polling: once a process is reaped, its pidfd reports POLLHUP (Linux 6.9 on). `false` only if it is still
    /// unreaped after `failsafe`, which turns a hang into a failure and is never the pass condition.
    static func waitUntilReaped(_ pid: pid_t, after release: () -> Void, failsafe: Duration = .seconds(15)) async -> Bool {
        // POLLHUP is reported unasked.
        await awaitPidfd(pid, for: Int16(POLLHUP), asking: 0, what: "reaping", before: release, failsafe: failsafe)
    }

    /// Opens a pidfd for `pid`, runs `before`, and waits on a thread of its own until the pidfd reports
    /// `wanted` (`asking` is what `poll` is asked for). A process already gone counts as done.
    private static func awaitPidfd(
        _ pid: pid_t, for wanted: Int16, asking: Int16? = nil, what: String,
        before: () -> Void = {}, failsafe: Duration
    ) async -> Bool {
        guard let pidfdOpen = SpawnExtensions.pidfdOpen else {
            Issue.record("pidfd_open is unavailable, so the \(what) of \(pid) cannot be awaited")
            return false
        }
        let descriptor = pidfdOpen(pid, 0)
        let failure = errno
        before()
        if descriptor < 0 {
            if failure == ESRCH { return true }
            Issue.record("pidfd_open(\(pid)) failed: \(String(cString: strerror(failure)))")
            return false
        }
        let milliseconds = Int32(failsafe.components.seconds * 1_000)
        return await withCheckedContinuation { continuation in
            Thread {
                defer { _ = close(descriptor) }
                var entry = pollfd(fd: descriptor, events: asking ?? wanted, revents: 0)
                var ready = poll(&entry, 1, milliseconds)
                while ready < 0 && errno == EINTR { ready = poll(&entry, 1, milliseconds) }
                continuation.resume(returning: ready == 1 && entry.revents & wanted != 0)
            }.start()
        }
    }
}
