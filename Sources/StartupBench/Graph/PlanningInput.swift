import StartupKit

/// A bench graph as a caller of `StartupPlanBuilder` has it: identifiers and dependency lists made
/// once, before anything is timed.
struct PlanningInput: Sendable {
    /// What the graph is, for messages.
    let label: String
    /// The identifiers, in declaration order.
    let ids: [CommandID]
    /// `dependencies[i]` are the identifiers command `i` depends on.
    let dependencies: [[CommandID]]

    /// Names the commands and edges of `graph`.
    init(_ graph: BenchGraph) {
        label = graph.label
        ids = graph.commandIDs
        dependencies = graph.dependencies.map { [ids] in $0.map { ids[$0] } }
    }

    /// The number of commands.
    var count: Int { ids.count }

    /// The number of dependency edges.
    var edgeCount: Int { dependencies.reduce(0) { $0 + $1.count } }

    /// A builder holding every command, each a no-op.
    func builder() -> StartupPlanBuilder {
        let noOp: @Sendable (StartupContext) async throws -> Void = { _ in }
        var builder = StartupPlanBuilder()
        for command in ids.indices {
            builder.add(ids[command], dependsOn: dependencies[command], execute: noOp)
        }
        return builder
    }

    /// The floor's topological order; stops the bench if the graph is invalid.
    func floorOrder() -> [Int] {
        guard let order = PlanningFloorPeer.sort(ids: ids, dependencies: dependencies), order.count == count else {
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
