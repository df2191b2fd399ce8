import StartupKit

/// A bench graph as a caller of `StartupPlanBuilder` has it: identifiers, dependency lists and
/// order-only (`after`) lists made once, before anything is timed.
struct PlanningInput: Sendable {
    /// What the graph is, for messages.
    let label: String
    /// The identifiers, in declaration order.
    let ids: [CommandID]
    /// `dependencies[i]` are the identifiers command `i` depends on.
    let dependencies: [[CommandID]]
    /// `after[i]` are the identifiers command `i` runs after without depending on them.
    let after: [[CommandID]]

    /// Names the commands and edges of `graph`, every edge a dependency.
    init(_ graph: BenchGraph) {
        label = graph.label
        ids = graph.commandIDs
        dependencies = graph.dependencies.map { [ids] in $0.map { ids[$0] } }
        after = Array(repeating: [], count: ids.count)
    }

    private init(label: String, ids: [CommandID], dependencies: [[CommandID]], after: [[CommandID]]) {
        self.label = label
        self.ids = ids
        self.dependencies = dependencies
        self.after = after
    }

    /// The same graph with every `nth` edge, counted across the commands in declaration order, an
    /// order-only `after` edge instead of a dependency: the same order, the same edge count.
    func withOrderOnly(every nth: Int) -> PlanningInput {
        var edge = 0
        var dependencies: [[CommandID]] = []
        var after: [[CommandID]] = []
        dependencies.reserveCapacity(count)
        after.reserveCapacity(count)
        for command in ids.indices {
            var required: [CommandID] = []
            var ordered: [CommandID] = []
            for predecessor in self.dependencies[command] + self.after[command] {
                edge += 1
                if edge % nth == 0 { ordered.append(predecessor) } else { required.append(predecessor) }
            }
            dependencies.append(required)
            after.append(ordered)
        }
        return PlanningInput(label: "\(label), every \(nth) edges order-only", ids: ids, dependencies: dependencies, after: after)
    }

    /// The number of commands.
    var count: Int { ids.count }

    /// The number of edges, dependencies and order-only edges.
    var edgeCount: Int { dependencyCount + orderOnlyCount }

    /// The number of dependency edges.
    var dependencyCount: Int { dependencies.reduce(0) { $0 + $1.count } }

    /// The number of order-only edges.
    var orderOnlyCount: Int { after.reduce(0) { $0 + $1.count } }

    /// A builder holding every command, each a no-op.
    func builder() -> StartupPlanBuilder {
        let noOp: @Sendable (StartupContext) async throws -> Void = { _ in }
        var builder = StartupPlanBuilder()
        for command in ids.indices {
            builder.add(ids[command], dependsOn: dependencies[command], after: after[command], execute: noOp)
        }
        return builder
    }

    /// The floor's topological order, every edge alike; stops the bench if the graph is invalid.
    func floorOrder() -> [Int] {
        let edges = orderOnlyCount == 0 ? dependencies : zip(dependencies, after).map { $0 + $1 }
        guard let order = PlanningFloorPeer.sort(ids: ids, dependencies: edges), order.count == count else {
            fatalError("the planning floor could not sort the generated graph (\(label))")
        }
        return order
    }
}

extension StartupPlanBuilder {
    /// Builds the plan of `input`; stops the bench if the generated graph is invalid.
    func validatedPlan(of input: PlanningInput) -> StartupPlan {
        do {
            let plan = try build()
            precondition(plan.count == input.count, "the plan lost commands")
            return plan
        } catch {
            fatalError("StartupBench generated an invalid graph (\(input.label)): \(error)")
        }
    }
}
