/// How one call into a module ended: an event handler, a request handler or a stop.
///
/// Complete: a call returns, throws, times out or is cancelled. No case will be added before a
/// major version, so a `switch` over it may list every case without a `default`.
public enum ModuleCallStatus: Sendable {
    /// It returned.
    case succeeded
    /// It threw this error.
    case failed(any Error)
    /// It ran longer than its timeout; it was cancelled and no longer waited for.
    case timedOut(after: Duration)
    /// The caller was cancelled before the call began or while it ran.
    case cancelled

    /// `succeeded`, `failed`, `timedOut` or `cancelled`, like ``CommandStatus/name``.
    public var name: String {
        switch self {
        case .succeeded: "succeeded"
        case .failed: "failed"
        case .timedOut: "timedOut"
        case .cancelled: "cancelled"
        }
    }

    /// Whether the call returned normally.
    public var isSuccess: Bool {
        if case .succeeded = self { return true }
        return false
    }
}
