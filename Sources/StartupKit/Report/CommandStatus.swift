/// How a command ended.
///
/// Two statuses are equal when a report says the same of them: same case and payload, and for
/// ``failed(_:)`` the same error description (the part of an error a saved report keeps).
///
/// Statuses are added as StartupKit grows (a minor version may add one, as it added
/// ``notRequested``): a `switch` over a status should have a `default`, so that code written
/// against this version keeps compiling. ``name`` and ``isFailure`` cover every status.
///
/// ```swift
/// func mark(for status: CommandStatus) -> String {
///     switch status {
///     case .succeeded: "ok"
///     case .failed, .timedOut: "failed"
///     default: status.name
///     }
/// }
/// ```
public enum CommandStatus: Sendable, Hashable {
    /// It returned its output.
    case succeeded
    /// Its last attempt threw this error; a report read back from a file carries a
    /// ``RecordedError`` with the message.
    case failed(any Error)
    /// It never started because a dependency did not succeed.
    case skipped(SkipReason)
    /// Its last attempt ran longer than its timeout and was cancelled.
    case timedOut(after: Duration)
    /// The run was cancelled (or stopped by a fail-fast failure) before or while it ran.
    case cancelled
    /// An on-demand command that nothing asked for; not a failure.
    case notRequested

    /// Every status's stable name, in the order of the cases.
    public static let names = ["succeeded", "failed", "skipped", "timedOut", "cancelled", "notRequested"]

    /// `succeeded`, `failed`, `skipped`, `timedOut`, `cancelled` or `notRequested`: the status's stable name, as
    /// machine-readable output uses it.
    public var name: String {
        switch self {
        case .succeeded: "succeeded"
        case .failed: "failed"
        case .skipped: "skipped"
        case .timedOut: "timedOut"
        case .cancelled: "cancelled"
        case .notRequested: "notRequested"
        }
    }

    /// Whether the command succeeded.
    public var isSuccess: Bool {
        if case .succeeded = self { return true }
        return false
    }

    /// Whether the command was meant to run and did not succeed: every status but ``succeeded``
    /// and ``notRequested``. A required command with such a status fails the run.
    public var isFailure: Bool {
        switch self {
        case .succeeded, .notRequested: false
        case .failed, .skipped, .timedOut, .cancelled: true
        }
    }

    /// Why the command did not succeed, in words (the error, the skip reason, the timeout);
    /// `nil` if it succeeded.
    public var detail: String? {
        switch self {
        case .succeeded: nil
        case .failed(let error): String(describing: error)
        case .skipped(let reason): reason.description
        case .timedOut(let limit): "timed out after \(DurationText.format(limit))"
        case .cancelled: "cancelled"
        case .notRequested: "not requested"
        }
    }

    /// Same case and payload; failures compare by their error's description.
    public static func == (lhs: CommandStatus, rhs: CommandStatus) -> Bool {
        switch (lhs, rhs) {
        case (.succeeded, .succeeded), (.cancelled, .cancelled), (.notRequested, .notRequested): true
        case (.failed(let left), .failed(let right)): String(describing: left) == String(describing: right)
        case (.skipped(let left), .skipped(let right)): left == right
        case (.timedOut(let left), .timedOut(let right)): left == right
        default: false
        }
    }

    /// Hashes the name and payload, a failure by its error's description.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        switch self {
        case .succeeded, .cancelled, .notRequested: break
        case .failed(let error): hasher.combine(String(describing: error))
        case .skipped(let reason): hasher.combine(reason)
        case .timedOut(let limit): hasher.combine(limit)
        }
    }
}
