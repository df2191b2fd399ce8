/// The strongest signal we sent to a child's process group because its task was cancelled.
package enum CancellationSignal: Sendable, Hashable {
    /// SIGTERM was sent to the group and the leader exited within the grace period.
    case terminate
    /// The leader outlived the grace period and the group got SIGKILL.
    case kill
}
