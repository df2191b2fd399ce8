/// What happened to one command during a run.
public struct CommandReport: Sendable {
    /// The command.
    public let id: CommandID
    /// How it ended.
    public let status: CommandStatus
    /// When its first attempt started, from the start of the run; `nil` if it never started.
    public let startOffset: Duration?
    /// When its last attempt ended, from the start of the run; `nil` if it never started.
    public let endOffset: Duration?
    /// How many attempts were made: 0 if it never started, more than 1 after retries.
    public let attempts: Int
    /// Whether its failure is allowed without failing the run.
    public let isOptional: Bool
    /// How much later it could have finished without delaying the run, by measured durations.
    public let slack: Duration
    /// Whether it is on the measured critical path.
    public let isOnCriticalPath: Bool

    /// From the start of its first attempt to the end of its last; zero if it never started.
    public var duration: Duration {
        guard let startOffset, let endOffset else { return .zero }
        return endOffset - startOffset
    }
}
