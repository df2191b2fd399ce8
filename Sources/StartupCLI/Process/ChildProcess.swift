#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a spawned child ended, plus whether cancellation made us signal its process group.
struct ChildExit: Sendable, Hashable {
    /// How the child ended.
    var termination: Termination
    /// The strongest signal sent because of cancellation, if any.
    var cancellation: CancellationSignal?
}

/// A running child that leads its own process group: waits for it and stops the group on task cancellation.
///
/// Signalling and reaping are serialised by the actor: `kill(-pid, …)` only ever runs before `reap()`, while the
/// leader is still running or an unreaped zombie, so its pid (= process-group id) cannot have been reused.
actor ChildProcess {
    /// The child's pid, which is also its process-group id.
    nonisolated let pid: pid_t
    /// Set by `reap()`; afterwards the group is never signalled again.
    private var reaped = false
    /// The strongest signal we sent to the group.
    private var signal: CancellationSignal? = nil
    /// The pending SIGKILL escalation after the grace period.
    private var escalation: Task<Void, Never>? = nil

    /// Wraps the pid of a child spawned as the leader of a new process group.
    init(pid: pid_t) {
        self.pid = pid
    }

    /// Waits for the child to exit (no polling, no cooperative thread blocked), then reaps it. If the calling task
    /// is cancelled meanwhile, the group gets SIGTERM, then SIGKILL after `gracePeriod`.
    nonisolated func waitForExit(
        gracePeriod: Duration,
        strategy: ExitWatcher.Strategy = .automatic
    ) async -> ChildExit {
        let waitError = await withTaskCancellationHandler {
            await ExitWatcher.exited(pid, strategy: strategy)
        } onCancel: {
            Task { await self.requestTermination(gracePeriod: gracePeriod) }
        }
        return await reap(waitError: waitError)
    }

    /// Sends SIGTERM to the group (SIGKILL if `gracePeriod` is not positive) and schedules SIGKILL after it.
    func requestTermination(gracePeriod: Duration) {
        guard !reaped, signal == nil else { return }
        if gracePeriod <= .zero {
            _ = kill(-pid, SIGKILL)
            signal = .kill
            return
        }
        _ = kill(-pid, SIGTERM)
        signal = .terminate
        escalation = Task {
            do { try await Task.sleep(for: gracePeriod) } catch { return }
            self.escalate()
        }
    }

    /// Sends SIGKILL to the group if the leader has not been reaped by the end of the grace period.
    private func escalate() {
        guard !reaped, signal == .terminate else { return }
        _ = kill(-pid, SIGKILL)
        signal = .kill
    }

    /// Reaps the exited leader (`waitError` is the errno of the non-reaping wait, or 0); after a cancellation,
    /// first SIGKILLs whatever is left of the group (e.g. grandchildren that ignored SIGTERM).
    private func reap(waitError: Int32) -> ChildExit {
        reaped = true
        escalation?.cancel()
        escalation = nil
        guard waitError == 0 else { return lost(waitError) }
        if signal != nil { _ = kill(-pid, SIGKILL) }
        // The leader is already a zombie, so this returns at once.
        var status: Int32 = 0
        var result: pid_t
        repeat {
            result = waitpid(pid, &status, 0)
        } while result == -1 && errno == EINTR
        if result == -1 { return lost(errno) }
        return ChildExit(termination: Termination(waitStatus: status), cancellation: signal)
    }

    /// The outcome when the child could not be waited for (e.g. someone else reaped it, or SIGCHLD is ignored).
    private func lost(_ code: Int32) -> ChildExit {
        ChildExit(
            termination: .failedToStart(
                errno: code, message: "lost track of process \(pid): \(errnoDescription(code))"),
            cancellation: signal)
    }
}
