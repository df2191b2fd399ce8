/// The shared, immutable contents of a ``StartupPlan``.
final class PlanStorage: Sendable {
    /// The commands in declaration order.
    let commands: [AnyStartupCommand]
    /// Position of each command by identifier.
    let index: [CommandID: Int]
    /// The dependency edges, topological order and levels.
    let graph: DependencyGraph
    /// The orchestrator's order for ready commands, by position.
    let readyKeys: [ReadyKey]

    init(commands: [AnyStartupCommand], index: [CommandID: Int], graph: DependencyGraph) {
        self.commands = commands
        self.index = index
        self.graph = graph
        self.readyKeys = ReadyKey.keys(for: commands, graph: graph)
    }
}
