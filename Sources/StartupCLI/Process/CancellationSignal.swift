/// The strongest signal we sent to a child's process group because its task was cancelled.
package enum CancellationSignal: Sendable, Hashable {
    /// SIGTERM was sent to the group and the leader exited within the grace period.
    case terminate
    /// The leader outlived the grace period and the group got SIGKILL.
    case kill
    /// None: the child was left to its stop line (a service's, see `ProcessSpawner`) and its leader exited within
    /// the grace period; what was left of its group and tree then got SIGKILL.
    case leftToStopLine
}
