/// The strongest signal we sent to a child's process group because its task was cancelled.
package enum CancellationSignal: Sendable, Hashable {
    /// SIGTERM was sent to the group and the leader exited within the grace period.
    case terminate
    /// The group got SIGKILL: its grace period ran out, there was none, or `startup` was told to kill at once
    /// (``ProcessKill/Cause``).
    case kill
    /// None: the child was left to its stop line (a service's, see `ProcessSpawner`) and its leader exited within
    /// the grace period; what was left of its group and tree then got SIGKILL.
    case leftToStopLine
}
