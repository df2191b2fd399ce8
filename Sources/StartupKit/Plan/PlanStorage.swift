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
    /// Whether any command is on demand.
    let hasOnDemand: Bool
    /// Whether any command is a gate.
    let hasGates: Bool
    /// Whether any command is a service.
    let hasServices: Bool
    /// Whether any command blocks its thread (and so a run needs a blocking pool).
    let hasBlocking: Bool
    /// How many commands have an effective priority above normal: a launch's priority work.
    let raisedCount: Int
    /// For each command whose estimate was learned from past launches, by position, how many;
    /// the others' estimates, if any, are declared.
    let learnedLaunches: [Int: Int]

    init(commands: [AnyStartupCommand], index: [CommandID: Int], graph: DependencyGraph, learnedLaunches: [Int: Int] = [:]) {
        self.commands = commands
        self.index = index
        self.graph = graph
        self.learnedLaunches = learnedLaunches
        self.readyKeys = ReadyKey.keys(for: commands, graph: graph)
        // Known once per plan, so a run need not scan its commands to choose its paths.
        var hasOnDemand = false
        var hasGates = false
        var hasServices = false
        var hasBlocking = false
        for command in commands {
            hasBlocking = hasBlocking || command.isBlocking
            hasOnDemand = hasOnDemand || command.options.activation == .onDemand
            hasGates = hasGates || command.isGate
            hasServices = hasServices || command.serve != nil
        }
        self.hasOnDemand = hasOnDemand
        self.hasGates = hasGates
        self.hasServices = hasServices
        self.hasBlocking = hasBlocking
        raisedCount = readyKeys.count { $0.priority > 0 }
    }
}
