/// Why a run stopped starting commands before all had run.
enum StopReason: Sendable, Hashable {
    /// A required command did not succeed under fail-fast.
    case failFast
    /// The run was cancelled.
    case cancelled
}
