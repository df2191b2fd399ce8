import StartupKit

/// How one command's part of a move by hand or a reload came out.
struct MoveStep: Sendable {
    let id: CommandID
    /// When it began and ended, from the live model's start.
    let began: Duration
    let ended: Duration
    let succeeded: Bool
    /// Whether it ended ready (a service) rather than succeeded (a one-shot command).
    let endsReady: Bool
    /// What it did and what that cost, or why it failed, for the client and the run's terminal.
    let sentence: String

    var duration: Duration { ended - began }
}

/// Carries out a move over several commands in dependency order (or its reverse, for stops): each waits for its
/// neighbours among them that come first, independent ones at once, and one whose neighbour failed is left as it
/// is; and finds the critical path of what was done.
enum MoveCascade {
    /// Carries out `move` on each of `ids`: after the ones it depends on among `ids` (after the ones that depend on
    /// it, when `reversed`), in waves.
    static func run(
        _ ids: [CommandID], graph: CommandGraph, reversed: Bool = false, move: @escaping @Sendable (CommandID) async -> MoveStep
    ) async -> [MoveStep] {
        let members = Set(ids)
        let ordered = reversed ? graph.sorted(ids).reversed() : graph.sorted(ids)
        // What each waits for among the members: the nearest ones it needs, directly or through commands that are
        // not moved (for a stop, the nearest that need it).
        var waitsFor: [CommandID: [CommandID]] = [:]
        for id in ids {
            for nearest in graph.nearest(of: id, among: members) {
                if reversed { waitsFor[nearest, default: []].append(id) } else { waitsFor[id, default: []].append(nearest) }
            }
        }
        var level: [CommandID: Int] = [:]
        for id in ordered { level[id] = (waitsFor[id] ?? []).map { (level[$0] ?? 0) + 1 }.max() ?? 0 }
        var waves: [[CommandID]] = []
        for id in ordered {
            let wave = level[id] ?? 0
            while waves.count <= wave { waves.append([]) }
            waves[wave].append(id)
        }
        var failed = Set<CommandID>()
        var steps: [MoveStep] = []
        for wave in waves {
            let due = wave.filter { id in !(waitsFor[id] ?? []).contains(where: failed.contains) }
            failed.formUnion(wave.filter { !due.contains($0) })
            let done = await withTaskGroup(of: MoveStep.self) { group in
                for id in due { group.addTask { await move(id) } }
                return await group.reduce(into: [MoveStep]()) { $0.append($1) }
            }
            failed.formUnion(done.filter { !$0.succeeded }.map(\.id))
            steps += done.sorted { ordered.firstIndex(of: $0.id) ?? 0 < ordered.firstIndex(of: $1.id) ?? 0 }
        }
        return steps
    }

    /// The chain of `steps` that ended last, each after the dependency among them that ended last before it.
    static func criticalPath(_ steps: [MoveStep], graph: CommandGraph) -> [MoveStep] {
        let byID = Dictionary(steps.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        guard var last = steps.filter(\.succeeded).max(by: { $0.ended < $1.ended }) else { return [] }
        var path = [last]
        while let previous = graph.dependencies(of: last.id).compactMap({ byID[$0] }).max(by: { $0.ended < $1.ended }) {
            path.append(previous)
            last = previous
        }
        return path.reversed()
    }

    /// The path as the reload line and `restart --cascade` say it: `build 2.1s -> api 310ms ready`.
    static func describe(_ path: [MoveStep]) -> String {
        ReloadLine.describe(path.map(ReloadLine.Step.init))
    }
}
