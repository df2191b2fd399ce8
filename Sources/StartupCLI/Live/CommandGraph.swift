import StartupKit
import StartupManifest

/// The dependencies between a run's commands, both ways, and their order, read off its plan: what a move with
/// `--cascade`, a start and a reload walk. Only dependencies count: an order-only `after` edge moves nothing.
struct CommandGraph: Sendable {
    private let plan: StartupPlan
    /// Each command's place in the plan's topological order.
    private let order: [CommandID: Int]

    init(plan: StartupPlan) {
        self.plan = plan
        order = Dictionary(uniqueKeysWithValues: plan.topologicalOrder.enumerated().map { ($1, $0) })
    }

    /// What `id` needs directly.
    func dependencies(of id: CommandID) -> [CommandID] {
        plan.dependencies(of: id)
    }

    /// `ids` and everything that depends on them, directly or not, that `includes` lets in (a dependent left out
    /// also leaves out what depends on it through it alone), in dependency order.
    func withDependents(of ids: [CommandID], where includes: (CommandID) -> Bool) -> [CommandID] {
        reached(from: ids, by: plan.dependents(of:), where: includes)
    }

    /// `ids` and everything they need, directly or not, in dependency order.
    func withDependencies(of ids: [CommandID]) -> [CommandID] {
        reached(from: ids, by: plan.dependencies(of:), where: { _ in true })
    }

    /// `ids` and what `next` reaches from them, step by step, through commands `includes` lets in.
    private func reached(
        from ids: [CommandID], by next: (CommandID) -> [CommandID], where includes: (CommandID) -> Bool
    ) -> [CommandID] {
        var seen = Set(ids)
        var pending = ids
        while let id = pending.popLast() {
            for reached in next(id) where !seen.contains(reached) && includes(reached) {
                seen.insert(reached)
                pending.append(reached)
            }
        }
        return sorted(Array(seen))
    }

    /// The commands of `members` that `id` needs nearest: directly, or through commands not in `members`.
    func nearest(of id: CommandID, among members: Set<CommandID>) -> [CommandID] {
        var found: [CommandID] = []
        var seen: Set<CommandID> = [id]
        var pending = dependencies(of: id)
        while let next = pending.popLast() {
            guard seen.insert(next).inserted else { continue }
            if members.contains(next) { found.append(next) } else { pending += dependencies(of: next) }
        }
        return found
    }

    /// `ids` in dependency order: each after what it needs.
    func sorted(_ ids: [CommandID]) -> [CommandID] {
        ids.sorted { (order[$0] ?? 0) < (order[$1] ?? 0) }
    }
}
