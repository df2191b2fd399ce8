import StartupKit

/// One command of a ``RunRecord``: how it ended, when it ran, and what it waited for.
public struct RunRecordCommand: Sendable, Hashable {
    /// The command.
    public var id: CommandID
    /// How it ended.
    public var status: RecordedStatus
    /// When its first attempt started, from the start of the run; `nil` if it never started.
    public var startOffset: Duration?
    /// When its last attempt ended, from the start of the run; `nil` if it never started.
    public var endOffset: Duration?
    /// From the start of its first attempt to the end of its last; zero if it never started.
    public var duration: Duration
    /// How many attempts were made.
    public var attempts: Int
    /// How much later it could have finished without delaying the run.
    public var slack: Duration
    /// Whether its failure was allowed.
    public var isOptional: Bool
    /// Whether it was on the measured critical path.
    public var isOnCriticalPath: Bool
    /// Why it did not succeed, in words; `nil` if it did.
    public var detail: String?
    /// The commands it waited for, in declaration order.
    public var dependencies: [CommandID]
    /// Its budget from the manifest, if any.
    public var budget: Duration?

    /// Creates a command record.
    public init(id: CommandID, status: RecordedStatus, startOffset: Duration? = nil, endOffset: Duration? = nil,
                duration: Duration = .zero, attempts: Int = 1, slack: Duration = .zero, isOptional: Bool = false,
                isOnCriticalPath: Bool = false, detail: String? = nil, dependencies: [CommandID] = [], budget: Duration? = nil) {
        self.id = id
        self.status = status
        self.startOffset = startOffset
        self.endOffset = endOffset
        self.duration = duration
        self.attempts = attempts
        self.slack = slack
        self.isOptional = isOptional
        self.isOnCriticalPath = isOnCriticalPath
        self.detail = detail
        self.dependencies = dependencies
        self.budget = budget
    }
}
