/// How a command ended.
public enum CommandStatus: Sendable {
    /// It returned its output.
    case succeeded
    /// Its last attempt threw this error.
    case failed(any Error)
    /// It never started because a dependency did not succeed.
    case skipped(SkipReason)
    /// Its last attempt ran longer than its timeout and was cancelled.
    case timedOut(after: Duration)
    /// The run was cancelled (or stopped by a fail-fast failure) before or while it ran.
    case cancelled

    /// `succeeded`, `failed`, `skipped`, `timedOut` or `cancelled`: the status's stable name, as
    /// machine-readable output uses it.
    public var name: String {
        switch self {
        case .succeeded: "succeeded"
        case .failed: "failed"
        case .skipped: "skipped"
        case .timedOut: "timedOut"
        case .cancelled: "cancelled"
        }
    }

    /// Whether the command succeeded.
    public var isSuccess: Bool {
        if case .succeeded = self { return true }
        return false
    }
}
