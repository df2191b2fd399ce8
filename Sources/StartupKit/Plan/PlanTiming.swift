/// The timing of a plan for given durations: the critical path, and each command's earliest
/// and latest start and its slack (how much it could be delayed without delaying the end).
public struct PlanTiming: Sendable {
    /// The timing of one command.
    public struct Entry: Sendable, Hashable {
        /// The command.
        public let id: CommandID
        /// The duration the analysis used.
        public let duration: Duration
        /// The earliest the command can start: when its last dependency can have finished.
        public let earliestStart: Duration
        /// The latest it can start without delaying the end of the whole graph.
        public let latestStart: Duration

        /// `latestStart - earliestStart`: zero on the critical path.
        public var slack: Duration { latestStart - earliestStart }
        /// The earliest the command can finish.
        public var earliestFinish: Duration { earliestStart + duration }
    }

    /// One entry per command, in declaration order.
    public let entries: [Entry]

    /// The longest chain of dependent commands, from the first to start to the last to finish.
    public let criticalPath: [CommandID]

    /// The length of the critical path: the shortest possible wall time with unlimited slots.
    public let criticalPathDuration: Duration

    private let index: [CommandID: Int]

    /// The entry of a command, or `nil` if the plan has no such command.
    public subscript(id: CommandID) -> Entry? {
        index[id].map { entries[$0] }
    }

    /// Computes the timing by a forward and a backward sweep in topological order.
    ///
    /// - Complexity: O(commands + edges).
    init(plan: StartupPlan, durations: [Int64]) {
        let sweep = TimingSweep(graph: plan.storage.graph, durations: durations)
        let commands = plan.storage.commands
        self.entries = commands.indices.map { position in
            Entry(
                id: commands[position].id, duration: .nanoseconds(durations[position]),
                earliestStart: .nanoseconds(sweep.earliestStart[position]),
                latestStart: .nanoseconds(sweep.latestStart(position)))
        }
        self.criticalPath = sweep.criticalPath.map { commands[$0].id }
        self.criticalPathDuration = .nanoseconds(sweep.end)
        self.index = plan.storage.index
    }
}
