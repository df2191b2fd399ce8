import StartupKit
import StartupSupport

extension Manifest {
    /// The part of the manifest that `targets` need, as `make target` builds only what a target
    /// needs: the targets and their dependencies, transitively, in declaration order, with the
    /// defaults kept. Every command selected is eager, since a target needs each of them (a target
    /// that is on demand runs because it was named). No targets selects the whole manifest as it is.
    ///
    /// `"after"` edges are not followed: a command a selected one runs after is selected only if
    /// something selected needs it, and otherwise is not waited for (``makePlan(_:)`` drops the
    /// edge).
    ///
    /// Duplicates, and targets that another target needs, are fine.
    ///
    /// - Parameter targets: The ids to select.
    /// - Throws: ``UnknownTargetError`` naming every target the manifest does not have, each with
    ///   the closest id it has.
    /// - Complexity: O(commands + dependencies), plus a bounded amount per unknown target.
    public func selecting(_ targets: [CommandID]) throws(UnknownTargetError) -> Manifest {
        guard !targets.isEmpty else { return self }
        var positions: [CommandID: Int] = [:]
        positions.reserveCapacity(commands.count)
        for (position, command) in commands.enumerated() where positions[command.id] == nil {
            positions[command.id] = position
        }
        var isSelected = [Bool](repeating: false, count: commands.count)
        var pending: [Int] = []
        var unknown: [UnknownTargetError.Target] = []
        var named = Set<CommandID>()  // Unknown targets already named.
        var suggestions: IdentifierSuggestionIndex?  // Built at the first unknown target.
        for target in targets {
            guard let position = positions[target] else {
                guard named.insert(target).inserted else { continue }
                if suggestions == nil { suggestions = IdentifierSuggestionIndex(commands.map(\.id.rawValue)) }
                let suggestion = suggestions?.closest(to: target.rawValue).map { CommandID($0) }
                unknown.append(UnknownTargetError.Target(id: target, suggestion: suggestion))
                continue
            }
            if !isSelected[position] {
                isSelected[position] = true
                pending.append(position)
            }
        }
        guard unknown.isEmpty else { throw UnknownTargetError(targets: unknown) }
        // A walk with an explicit stack: a long chain of dependencies cannot overflow it.
        while let position = pending.popLast() {
            for dependency in commands[position].dependencies {
                // A dependency the manifest lacks stays listed; making the plan reports it.
                guard let found = positions[dependency], !isSelected[found] else { continue }
                isSelected[found] = true
                pending.append(found)
            }
        }
        var selected = self
        selected.commands = commands.indices.filter { isSelected[$0] }.map { position in
            var command = commands[position]
            command.isOnDemand = false
            return command
        }
        return selected
    }
}
