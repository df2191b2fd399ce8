import StartupSupport

/// Why a command was skipped: which failure upstream kept it from running.
public struct SkipReason: Hashable, Sendable, CustomStringConvertible {
    /// The command that failed, timed out or was cancelled, the root cause.
    public let failedCommand: CommandID
    /// The direct dependency through which the failure reached this command; equal to
    /// `failedCommand` when the failed command is a direct dependency.
    public let dependency: CommandID

    /// Creates a reason.
    public init(failedCommand: CommandID, dependency: CommandID) {
        self.failedCommand = failedCommand
        self.dependency = dependency
    }

    /// `dependency "database" failed`, or `dependency "cache" was skipped because "database" failed`.
    public var description: String {
        failedCommand == dependency
            ? "dependency \(MessageQuoting.quoted(dependency)) did not succeed"
            : "dependency \(MessageQuoting.quoted(dependency)) was skipped because \(MessageQuoting.quoted(failedCommand)) did not succeed"
    }
}
