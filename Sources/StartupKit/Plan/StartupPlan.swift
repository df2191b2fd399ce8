/// A validated, immutable set of start-up commands sorted into a dependency graph.
///
/// Made by ``StartupPlanBuilder/build()``; run by ``StartupOrchestrator``. It answers questions
/// about the graph (order, levels, dependencies, dependents) and, given durations, about timing
/// (``timing(durations:)``, ``predictedWallTime(durations:slots:)``).
public struct StartupPlan: Sendable {
    let storage: PlanStorage

    /// The number of commands.
    public var count: Int { storage.commands.count }

    /// The command identifiers in declaration order.
    public var ids: [CommandID] { storage.commands.map(\.id) }

    /// Every command after all of its dependencies.
    public var topologicalOrder: [CommandID] { storage.graph.order.map { storage.commands[$0].id } }

    /// The waves: level 0 holds the commands without dependencies, level *n* those whose deepest
    /// dependency is at level *n* - 1. Within a level, declaration order.
    public var levels: [[CommandID]] {
        var levels: [[CommandID]] = []
        for (command, level) in storage.graph.level.enumerated() {
            while levels.count <= level { levels.append([]) }
            levels[level].append(storage.commands[command].id)
        }
        return levels
    }

    /// Whether the plan has a command with this identifier.
    public func contains(_ id: CommandID) -> Bool {
        storage.index[id] != nil
    }

    /// The level (wave) of a command; see ``levels``.
    public func level(of id: CommandID) -> Int {
        storage.graph.level[position(of: id)]
    }

    /// The direct dependencies of a command, in declaration order, each once.
    ///
    /// - Precondition: The plan contains `id`.
    public func dependencies(of id: CommandID) -> [CommandID] {
        storage.graph.dependencies(of: position(of: id)).map { storage.commands[$0].id }
    }

    /// The commands a command runs after if they run (its order-only edges), in declaration order,
    /// each once; those not in the plan, and those it also depends on, are left out.
    ///
    /// - Precondition: The plan contains `id`.
    public func after(of id: CommandID) -> [CommandID] {
        storage.graph.orderOnlyPredecessors(of: position(of: id)).map { storage.commands[$0].id }
    }

    /// The commands that depend directly on a command, in declaration order.
    ///
    /// - Precondition: The plan contains `id`.
    public func dependents(of id: CommandID) -> [CommandID] {
        storage.graph.dependents(of: position(of: id)).map { storage.commands[$0].id }
    }

    /// The options of a command: priority, optionality, timeout, retries, estimate.
    ///
    /// - Precondition: The plan contains `id`.
    public func options(of id: CommandID) -> CommandOptions {
        storage.commands[position(of: id)].options
    }

    /// The module that added a command (``StartupModule/name``), or `nil` for the app's own.
    ///
    /// - Precondition: The plan contains `id`.
    public func module(of id: CommandID) -> String? {
        storage.commands[position(of: id)].module
    }

    /// The priority a command is started with: the highest of its own and that of every command
    /// that depends on it, directly or not. Marking the first screen `.high` raises its whole
    /// chain, so nobody has to find and mark the chain by hand.
    ///
    /// - Precondition: The plan contains `id`.
    public func effectivePriority(of id: CommandID) -> CommandPriority {
        storage.readyKeys[position(of: id)].effectivePriority
    }

    /// The effective priority of a command where a command that depends on it raises it above its
    /// own (``effectivePriority(of:)``), else `nil`.
    ///
    /// - Precondition: The plan contains `id`.
    public func raisedPriority(of id: CommandID) -> CommandPriority? {
        raisedPriority(at: position(of: id))
    }

    /// The effective priority at `position` where it is above the command's own, else `nil`.
    func raisedPriority(at position: Int) -> CommandPriority? {
        let effective = storage.readyKeys[position].effectivePriority
        // Compared as the scheduler keeps them (32 bits), so a priority past that range is not
        // reported as lowered.
        let own = Int(Int32(clamping: storage.commands[position].options.priority.value))
        return effective.value == own ? nil : effective
    }

    /// The estimate of every command that has one.
    public var estimates: [CommandID: Duration] {
        var estimates: [CommandID: Duration] = [:]
        for command in storage.commands {
            if let estimate = command.options.estimate { estimates[command.id] = estimate }
        }
        return estimates
    }

    /// A command's estimate and where it came from: declared in its options, or learned from
    /// past launches (``replacingEstimates(_:)``); `nil` if it has none.
    ///
    /// - Precondition: The plan contains `id`.
    public func estimate(of id: CommandID) -> CommandEstimate? {
        estimate(at: position(of: id))
    }

    /// The estimate at `position` and where it came from.
    func estimate(at position: Int) -> CommandEstimate? {
        guard let duration = storage.commands[position].options.estimate else { return nil }
        return storage.learnedLaunches[position].map { .learned(duration, launches: $0) } ?? .declared(duration)
    }

    /// The same plan with other estimates for some commands: the same commands, graph and
    /// options otherwise. The scheduler's critical-path-first order follows the new estimates;
    /// the report says where each came from (``CommandReport/estimate``). A launch profile
    /// applies what it learned this way.
    ///
    /// - Parameter estimates: The new estimates by id; ids the plan does not have are ignored.
    /// - Complexity: O(commands + edges).
    public func replacingEstimates(_ estimates: [CommandID: CommandEstimate]) -> StartupPlan {
        guard !estimates.isEmpty else { return self }
        var commands = storage.commands
        var learned = storage.learnedLaunches
        for (id, estimate) in estimates {
            guard let position = storage.index[id] else { continue }
            var options = commands[position].options
            options.estimate = estimate.duration
            commands[position] = commands[position].with(options: options)
            learned[position] = estimate.launches
        }
        return StartupPlan(
            storage: PlanStorage(commands: commands, index: storage.index, graph: storage.graph, learnedLaunches: learned))
    }

    /// Likely mistakes that are not errors, in declaration order: a required command that depends
    /// on an optional one, an on-demand command that an eager one needs.
    ///
    /// - Complexity: O(commands + edges).
    public var warnings: [PlanWarning] {
        let commands = storage.commands
        var warnings: [PlanWarning] = []
        for position in commands.indices {
            let command = commands[position]
            for dependency in storage.graph.dependencies(of: position) {
                let options = commands[dependency].options
                if !command.options.isOptional, options.isOptional {
                    warnings.append(.requiredDependsOnOptional(command.id, optional: commands[dependency].id))
                }
                if command.options.activation == .eager, options.activation == .onDemand {
                    warnings.append(.onDemandNeededByEager(commands[dependency].id, eager: command.id))
                }
            }
        }
        return warnings
    }

    /// The critical path, earliest and latest starts and slack of every command, for the given
    /// durations.
    ///
    /// - Parameter durations: A duration per command; commands missing from it use their
    ///   estimate, or zero. Without the argument, estimates are used.
    /// - Complexity: O(commands + edges).
    public func timing(durations: [CommandID: Duration] = [:]) -> PlanTiming {
        PlanTiming(plan: self, durations: nanoseconds(durations))
    }

    /// The wall time a start-up would take with these durations and this many slots, simulating
    /// the orchestrator's order (priority, then longest remaining path, then declaration order).
    ///
    /// - Parameters:
    ///   - durations: A duration per command; missing ones use their estimate, or zero.
    ///   - slots: How many commands may run at once; `nil` for no limit (the critical path).
    /// - Complexity: O((commands + edges) log commands).
    public func predictedWallTime(durations: [CommandID: Duration] = [:], slots: Int? = nil) -> Duration {
        precondition(slots.map { $0 > 0 } ?? true, "slots must be positive")
        return .nanoseconds(
            ListScheduleSimulation.makespan(
                graph: storage.graph, durations: nanoseconds(durations),
                readyKeys: storage.readyKeys, slots: slots ?? Int.max))
    }

    /// The position (declaration order) of a command.
    ///
    /// - Precondition: The plan contains `id`.
    package func position(of id: CommandID) -> Int {
        guard let position = storage.index[id] else { preconditionFailure("the plan has no command \"\(id)\"") }
        return position
    }

    /// Each command's place in ``topologicalOrder``, by position (declaration order).
    package func topologicalRanks() -> [Int] {
        var ranks = [Int](repeating: 0, count: count)
        for (place, position) in storage.graph.order.enumerated() { ranks[position] = place }
        return ranks
    }

    /// Durations in nanoseconds by position: given ones first, else estimates, else zero.
    func nanoseconds(_ durations: [CommandID: Duration]) -> [Int64] {
        storage.commands.map { command in
            (durations[command.id] ?? command.options.estimate)?.clampedNanoseconds ?? 0
        }
    }
}
