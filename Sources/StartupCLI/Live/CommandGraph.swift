import StartupKit
import StartupManifest

/// The dependencies between a run's commands, both ways, and their order: what a move with `--cascade`, a start
/// and a reload walk.
struct CommandGraph: Sendable {
    /// Each command's position in the manifest, which lists a command after its dependencies once planned.
    private let order: [CommandID: Int]
    private let dependencies: [CommandID: [CommandID]]
    private let dependents: [CommandID: [CommandID]]

    init(manifest: Manifest) {
        let ids = Set(manifest.commands.map(\.id))
        var dependencies: [CommandID: [CommandID]] = [:]
        var dependents: [CommandID: [CommandID]] = [:]
        for command in manifest.commands {
            let needed = command.dependencies.filter(ids.contains)
            dependencies[command.id] = needed
            for dependency in needed { dependents[dependency, default: []].append(command.id) }
        }
        self.dependencies = dependencies
        self.dependents = dependents
        order = Self.topologicalOrder(manifest.commands.map(\.id), dependencies: dependencies)
    }

    /// What `id` needs directly.
    func dependencies(of id: CommandID) -> [CommandID] {
        dependencies[id] ?? []
    }

    /// `ids` and everything that depends on them, directly or not, that `includes` lets in (a dependent left out
    /// also leaves out what depends on it through it alone).
    func withDependents(of ids: [CommandID], where includes: (CommandID) -> Bool) -> [CommandID] {
        var seen = Set(ids)
        var pending = ids
        while let id = pending.popLast() {
            for dependent in dependents[id] ?? [] where !seen.contains(dependent) && includes(dependent) {
                seen.insert(dependent)
                pending.append(dependent)
            }
        }
        return sorted(Array(seen))
    }

    /// `ids` and everything they need, directly or not, that `includes` lets in.
    func withDependencies(of ids: [CommandID], where includes: (CommandID) -> Bool) -> [CommandID] {
        var seen = Set(ids)
        var pending = ids
        while let id = pending.popLast() {
            for dependency in dependencies[id] ?? [] where !seen.contains(dependency) && includes(dependency) {
                seen.insert(dependency)
                pending.append(dependency)
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

    /// A topological order of `ids` (Kahn's algorithm, the first ready in manifest order first); a validated manifest
    /// has no cycle.
    private static func topologicalOrder(_ ids: [CommandID], dependencies: [CommandID: [CommandID]]) -> [CommandID: Int] {
        let position = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
        var remaining = ids.map { dependencies[$0]?.count ?? 0 }
        var dependents = Array(repeating: [Int](), count: ids.count)
        for (index, id) in ids.enumerated() {
            for dependency in dependencies[id] ?? [] { if let at = position[dependency] { dependents[at].append(index) } }
        }
        // Positions ready to go, largest first, so the smallest is popped.
        var ready = ids.indices.filter { remaining[$0] == 0 }.reversed() as [Int]
        var order: [CommandID: Int] = [:]
        while let index = ready.popLast() {
            order[ids[index]] = order.count
            for dependent in dependents[index] {
                remaining[dependent] -= 1
                guard remaining[dependent] == 0 else { continue }
                let at = ready.partitioningIndex { $0 < dependent }
                ready.insert(dependent, at: at)
            }
        }
        return order
    }
}

extension Array {
    /// The first index whose element satisfies `belongs`, in an array where every element that does comes after
    /// every one that does not.
    fileprivate func partitioningIndex(where belongs: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if belongs(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
