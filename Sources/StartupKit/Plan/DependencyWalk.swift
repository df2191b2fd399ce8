/// Releases the participants of a walk over the dependency graph in dependency order (or its
/// reverse): a participant becomes ready once every participant it waits for, directly or
/// through commands that do not take part, has finished. Non-participants finish the moment they
/// are reached, so they order the walk without costing a call.
///
/// A pure state machine, driven by one owner: ``takeReady()``, run what it returns, and
/// ``finish(_:)`` each participant when its call ends.
struct DependencyWalk {
    private let isParticipant: [Bool]
    private var countdown: ReleaseCountdown
    private var ready: [Int] = []

    /// Starts a walk.
    ///
    /// - Parameters:
    ///   - graph: The plan's graph.
    ///   - reversed: `false`: a command waits for its dependencies; `true`: for its dependents.
    ///   - participants: Positions of the commands whose calls the owner runs.
    /// - Complexity: O(commands + edges) over the whole walk, no recursion.
    init<S: Sequence>(graph: DependencyGraph, reversed: Bool, participants: S) where S.Element == Int {
        var isParticipant = [Bool](repeating: false, count: graph.count)
        for participant in participants { isParticipant[participant] = true }
        self.isParticipant = isParticipant
        countdown = ReleaseCountdown(graph: graph, direction: reversed ? .reverseDependencyOrder : .dependencyOrder)
        reach(countdown.roots)
    }

    /// The participants that became ready since the last call, each returned once.
    mutating func takeReady() -> [Int] {
        defer { ready.removeAll(keepingCapacity: true) }
        return ready
    }

    /// Marks a participant's call as ended, which may make others ready.
    mutating func finish(_ participant: Int) {
        var released: [Int] = []
        countdown.finish(participant, into: &released)
        reach(released)
    }

    /// Takes in commands whose predecessors have all finished: participants become ready,
    /// non-participants finish at once, passing the walk straight through them.
    private mutating func reach(_ commands: [Int]) {
        var reached = commands
        var next = 0
        while next < reached.count {
            let command = reached[next]
            next += 1
            if isParticipant[command] {
                ready.append(command)
            } else {
                countdown.finish(command, into: &reached)
            }
        }
    }
}
