/// What happened to one command during a run.
public struct CommandReport: Sendable, Hashable {
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
    /// The commands it waited for, as declared (the plan's list, shared, not copied).
    public let dependencies: [CommandID]
    /// Whether an attempt outlived its timeout, ignored its cancellation and was left running:
    /// the run went on without it.
    public let isAbandoned: Bool
    /// Whether the command is a service (``StartupService``): its end is when it signalled ready,
    /// and it kept running after.
    public let isService: Bool
    /// Whether it is a blocking command (``BlockingStartupCommand``), run on the run's blocking
    /// pool rather than on Swift's cooperative pool.
    public let ranOnBlockingPool: Bool
    /// Its effective priority, the one it was started with: the highest of its own and that of
    /// every command that depends on it, directly or not. A run's report gives it for every
    /// command; `nil` only in a report that does not know it (made by hand, or saved by a version
    /// that wrote it only where it was raised, and this command's was not).
    public let effectivePriority: CommandPriority?
    /// Its own priority, as declared in its options. A run's report gives it for every command;
    /// `nil` only in a report that does not know it (made by hand, or saved before reports carried
    /// it).
    public let priority: CommandPriority?
    /// The estimate the run was planned with and where it came from (declared, or learned from
    /// past launches); `nil` for a command without one.
    public let estimate: CommandEstimate?
    /// The module that added the command (``StartupModule/name``); `nil` for the app's own
    /// commands, and in a saved report written before modules were recorded.
    public let module: String?
    /// The commands it runs after if they run (its order-only edges), as declared (the plan's
    /// list, shared, not copied): those that ran ended before it started, whatever their
    /// outcome. Empty in a saved report written before these edges were recorded.
    public let after: [CommandID]

    /// Creates a command's report, as the orchestrator does at the end of a run, or as a reader
    /// of a saved report does. A command that never started has neither offset.
    public init(
        id: CommandID, status: CommandStatus, startOffset: Duration? = nil, endOffset: Duration? = nil,
        attempts: Int = 0, isOptional: Bool = false, slack: Duration = .zero, isOnCriticalPath: Bool = false,
        dependencies: [CommandID] = [], isAbandoned: Bool = false, isService: Bool = false, ranOnBlockingPool: Bool = false,
        effectivePriority: CommandPriority? = nil, priority: CommandPriority? = nil, estimate: CommandEstimate? = nil,
        module: String? = nil, after: [CommandID] = []
    ) {
        self.id = id
        self.status = status
        self.startOffset = startOffset
        self.endOffset = endOffset
        self.attempts = attempts
        self.isOptional = isOptional
        self.slack = slack
        self.isOnCriticalPath = isOnCriticalPath
        self.dependencies = dependencies
        self.isAbandoned = isAbandoned
        self.isService = isService
        self.ranOnBlockingPool = ranOnBlockingPool
        self.effectivePriority = effectivePriority
        self.priority = priority
        self.estimate = estimate
        self.module = module
        self.after = after
    }

    /// Whether a command that depends on it raised its effective priority above its own. In a
    /// report without the declared ``priority`` (one saved by an earlier version), an effective
    /// priority was only written where it was raised, and counts as raised.
    public var isPriorityRaised: Bool {
        guard let effectivePriority else { return false }
        return effectivePriority != priority
    }

    /// A service's time to ready, from the start of its first attempt; `nil` for a command, or a
    /// service that never became ready.
    public var timeToReady: Duration? {
        isService && status.isSuccess ? duration : nil
    }

    /// From the start of its first attempt to the end of its last (for a service, to ready);
    /// zero if it never started.
    public var duration: Duration {
        guard let startOffset, let endOffset else { return .zero }
        return endOffset - startOffset
    }
}
