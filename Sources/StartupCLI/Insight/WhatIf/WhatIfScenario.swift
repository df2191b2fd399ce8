import StartupKit
import StartupManifest
import StartupSupport

/// A manifest with `--what-if` changes applied, and what each change did, in words.
///
/// The changes rewrite the graph, never the orchestrator: `drop` removes a command and
/// `detach` its incoming edges (in both cases what waited for it, through a dependency or an
/// `after` edge, waits for what it waited for instead, so no other ordering is lost), `cut`
/// removes one edge (a dependency or an `after` edge), `scale` and `set` change an
/// estimate. The prediction is then the plan's own: ``StartupPlan/predictedWallTime(durations:slots:)``.
struct WhatIfScenario {
    /// One applied change.
    struct Step {
        let change: WhatIfChange
        /// What it did: `database 150ms -> 75ms`.
        let summary: String
        /// The command's estimate before and after, for duration changes and drops.
        let before: Duration?
        let after: Duration?
    }

    /// The manifest after every change.
    let manifest: Manifest
    /// The changes, in the order applied.
    let steps: [Step]

    /// Applies the changes in order.
    ///
    /// - Throws: A message naming an unknown command (with a suggestion), a command an earlier
    ///   change dropped, or a `cut` of an edge that does not exist.
    /// - Complexity: O(changes × (commands + edges)).
    static func apply(_ changes: [WhatIfChange], to manifest: Manifest) throws(WhatIfError) -> WhatIfScenario {
        let original = Set(manifest.commands.map(\.id))
        var commands = manifest.commands
        var steps: [Step] = []
        for change in changes {
            for id in change.ids where !commands.contains(where: { $0.id == id }) {
                if original.contains(id) {
                    throw WhatIfError(
                        message:
                            "\(MessageQuoting.quoted(change.description)): \(MessageQuoting.quoted(id)) was already dropped by an earlier change"
                    )
                }
                let hint =
                    IdentifierSuggestion.closest(to: id.rawValue, in: commands.map(\.id.rawValue))
                    .map { " (did you mean \(MessageQuoting.quoted($0))?)" } ?? ""
                throw WhatIfError(
                    message: "\(MessageQuoting.quoted(change.description)): unknown command \(MessageQuoting.quoted(id))\(hint)")
            }
            steps.append(try apply(change, to: &commands))
        }
        var changed = manifest
        changed.commands = commands
        return WhatIfScenario(manifest: changed, steps: steps)
    }

    private static func apply(_ change: WhatIfChange, to commands: inout [ManifestCommand]) throws(WhatIfError) -> Step {
        func position(_ id: CommandID) -> Int { commands.firstIndex { $0.id == id }! }
        switch change {
        case .drop(let id):
            let removed = commands[position(id)]
            let rewired = bypass(id, in: &commands)
            commands.remove(at: position(id))
            let waiting =
                rewired.isEmpty ? "" : "; " + list(rewired) + " now wait\(rewired.count == 1 ? "s" : "") for its dependencies instead"
            return Step(
                change: change, summary: "drop \(id) (\(DurationText.format(removed.estimate ?? .zero)))\(waiting)",
                before: removed.estimate ?? .zero, after: nil)
        case .detach(let id):
            let rewired = bypass(id, in: &commands)
            let summary =
                rewired.isEmpty
                ? "detach \(id): nothing waited for it"
                : "detach \(id): " + list(rewired) + " no longer wait\(rewired.count == 1 ? "s" : "") for it"
            return Step(change: change, summary: summary, before: nil, after: nil)
        case .cut(let dependency, let dependent):
            let index = position(dependent)
            if let edge = commands[index].dependencies.firstIndex(of: dependency) {
                commands[index].dependencies.remove(at: edge)
            } else if let edge = commands[index].after.firstIndex(of: dependency) {
                commands[index].after.remove(at: edge)
            } else {
                throw WhatIfError(
                    message:
                        "\(MessageQuoting.quoted(change.description)): \(MessageQuoting.quoted(dependent)) neither depends on nor runs after \(MessageQuoting.quoted(dependency))"
                )
            }
            return Step(
                change: change, summary: "cut \(dependency) -> \(dependent): \(dependent) no longer waits for \(dependency)",
                before: nil, after: nil)
        case .scale(let id, let factor):
            let index = position(id)
            let before = commands[index].estimate ?? .zero
            let after = before.scaled(by: factor)
            commands[index].estimate = after
            return Step(
                change: change,
                summary: "scale \(id) by \(WhatIfChange.format(factor)): \(DurationText.format(before)) -> \(DurationText.format(after))",
                before: before, after: after)
        case .setDuration(let id, let duration):
            let index = position(id)
            let before = commands[index].estimate ?? .zero
            commands[index].estimate = duration
            return Step(
                change: change, summary: "set \(id): \(DurationText.format(before)) -> \(DurationText.format(duration))",
                before: before, after: duration)
        }
    }

    /// Makes every command that waits for `id` wait for what `id` waited for instead, so no other
    /// ordering is lost; returns them. A dependent of `id` inherits its dependencies as
    /// dependencies and its `after` edges as `after` edges; a command that ran after `id` inherits
    /// both as `after` edges (it never required `id`, so it requires none of them).
    private static func bypass(_ id: CommandID, in commands: inout [ManifestCommand]) -> [CommandID] {
        let bypassed = commands.first { $0.id == id }!
        var rewired: [CommandID] = []
        for index in commands.indices {
            var command = commands[index]
            let dependency = command.dependencies.firstIndex(of: id)
            let predecessor = command.after.firstIndex(of: id)
            guard dependency != nil || predecessor != nil else { continue }
            if let dependency {
                command.dependencies.remove(at: dependency)
                for inherited in bypassed.dependencies where !command.dependencies.contains(inherited) && inherited != command.id {
                    command.dependencies.append(inherited)
                }
            }
            if let predecessor { command.after.remove(at: predecessor) }
            let orderedAfter = (predecessor == nil ? [] : bypassed.dependencies) + bypassed.after
            for inherited in orderedAfter
            where inherited != command.id && !command.dependencies.contains(inherited) && !command.after.contains(inherited) {
                command.after.append(inherited)
            }
            commands[index] = command
            rewired.append(command.id)
        }
        return rewired
    }

    private static func list(_ ids: [CommandID]) -> String {
        ids.count <= 4
            ? ids.map(\.rawValue).joined(separator: ", ")
            : ids.prefix(3).map(\.rawValue).joined(separator: ", ") + " and \(ids.count - 3) more"
    }
}
