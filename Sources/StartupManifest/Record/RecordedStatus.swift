import StartupKit

/// How a command of a saved run ended, by the stable name machine-readable output uses: the
/// ``CommandStatus`` without its payload (errors do not survive a file).
public enum RecordedStatus: String, Sendable, Hashable, CaseIterable {
    case succeeded, failed, skipped, timedOut, cancelled

    /// The status of a live command.
    public init(_ status: CommandStatus) {
        switch status {
        case .succeeded: self = .succeeded
        case .failed: self = .failed
        case .skipped: self = .skipped
        case .timedOut: self = .timedOut
        case .cancelled: self = .cancelled
        }
    }

    /// Whether the command succeeded.
    public var isSuccess: Bool { self == .succeeded }
}
