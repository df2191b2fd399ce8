/// What a run does when a required command fails, times out or is skipped.
public struct FailurePolicy: Hashable, Sendable, CustomStringConvertible {
    private enum Value: Hashable, Sendable { case continueIndependent, failFast }
    private let value: Value

    /// Skip the failed command's dependents and keep running everything independent of it
    /// (the default).
    public static let continueIndependent = FailurePolicy(value: .continueIndependent)

    /// Cancel everything: commands in flight are cancelled and nothing more starts.
    public static let failFast = FailurePolicy(value: .failFast)

    /// The policy's name.
    public var description: String { "\(value)" }
}
