/// The SIGKILL a stop had to send: how many processes were still there, and why the stop killed them.
package struct ProcessKill: Sendable, Hashable {
    /// Why a stop killed what was left.
    package enum Cause: Sendable, Hashable {
        /// They were still there when the stop's grace period ended.
        case gracePeriodEnded
        /// The stop had no grace period: `--grace-period 0s`, or a stop line, which is killed at once when its
        /// time is up.
        case noGracePeriod
        /// `startup` was told to kill at once: a second interrupt (during the grace period, or before the stop
        /// began), or an interrupt while it waits, at its end, for what was left running.
        case secondInterrupt
    }

    /// How many processes (the child, its group, what left the group) were still running and got SIGKILL; 0 when
    /// they had all gone by the time it was sent.
    package let processes: Int
    /// Why they were killed.
    package let cause: Cause

    /// Creates a kill of `processes` for `cause`.
    package init(processes: Int, cause: Cause) {
        self.processes = processes
        self.cause = cause
    }
}
