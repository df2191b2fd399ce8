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
        let graph = plan.storage.graph
        let commands = plan.storage.commands
        let (dependencyStart, dependencyList) = (graph.dependencyStart, graph.dependencyList)
        let (dependentStart, dependentList) = (graph.dependentStart, graph.dependentList)
        let level = graph.level
        var earliest = [Int64](repeating: 0, count: commands.count)
        var earliestFinish = [Int64](repeating: 0, count: commands.count)
        var end: Int64 = 0
        var last = -1
        for command in graph.order {
            var start: Int64 = 0
            for edge in dependencyStart[command]..<dependencyStart[command + 1] {
                start = max(start, earliestFinish[dependencyList[edge]])
            }
            earliest[command] = start
            let finish = start.addingSaturating(durations[command])
            earliestFinish[command] = finish
            // Among equal finishes, the deepest chain: without durations, the longest by count.
            if last == -1 || finish > end || (finish == end && level[command] > level[last]) {
                end = finish
                last = command
            }
        }
        var latestFinish = [Int64](repeating: end, count: commands.count)
        for command in graph.order.reversed() {
            var latest = end
            for edge in dependentStart[command]..<dependentStart[command + 1] {
                let dependent = dependentList[edge]
                latest = min(latest, latestFinish[dependent] - durations[dependent])
            }
            latestFinish[command] = latest
        }

        var path: [Int] = []
        var step = last
        while step >= 0 {
            path.append(step)
            // The dependency that finishes last held this command back; among several, the deepest.
            var holdingBack = -1
            for dependency in graph.dependencies(of: step)
            where earliestFinish[dependency] == earliest[step] && (holdingBack == -1 || level[dependency] > level[holdingBack]) {
                holdingBack = dependency
            }
            step = holdingBack
        }

        self.entries = commands.indices.map { position in
            Entry(id: commands[position].id, duration: .nanoseconds(durations[position]),
                  earliestStart: .nanoseconds(earliest[position]),
                  latestStart: .nanoseconds(latestFinish[position] - durations[position]))
        }
        self.criticalPath = path.reversed().map { commands[$0].id }
        self.criticalPathDuration = .nanoseconds(end)
        self.index = plan.storage.index
    }
}
