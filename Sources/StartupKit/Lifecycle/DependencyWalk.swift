/// Releases the participants of a walk over the dependency graph in dependency order (or its
/// reverse): a participant becomes ready once every participant it waits for, directly or
/// through commands that do not take part, has finished. Non-participants finish the moment they
/// are reached, so they order the walk without costing a call.
///
/// A pure state machine, driven by one owner: ``takeReady()``, run what it returns, and
/// ``finish(_:)`` each participant when its call ends.
struct DependencyWalk {
    private let graph: DependencyGraph
    private let reversed: Bool
    private let isParticipant: [Bool]
    /// How many predecessors (dependencies, or dependents when reversed) each command still waits for.
    private var waiting: [Int]
    private var ready: [Int] = []

    /// Starts a walk.
    ///
    /// - Parameters:
    ///   - graph: The plan's graph.
    ///   - reversed: `false`: a command waits for its dependencies; `true`: for its dependents.
    ///   - participants: Positions of the commands whose calls the owner runs.
    /// - Complexity: O(commands + edges) over the whole walk, no recursion.
    init<S: Sequence>(graph: DependencyGraph, reversed: Bool, participants: S) where S.Element == Int {
        self.graph = graph
        self.reversed = reversed
        var isParticipant = [Bool](repeating: false, count: graph.count)
        for participant in participants { isParticipant[participant] = true }
        self.isParticipant = isParticipant
        waiting = (0..<graph.count).map { command in
            reversed ? graph.dependents(of: command).count : graph.dependencies(of: command).count
        }
        let roots = (0..<graph.count).filter { waiting[$0] == 0 }
        for root in roots { reach(root) }
    }

    /// The participants that became ready since the last call, each returned once.
    mutating func takeReady() -> [Int] {
        defer { ready.removeAll(keepingCapacity: true) }
        return ready
    }

    /// Marks a participant's call as ended, which may make others ready.
    mutating func finish(_ participant: Int) {
        release(participant)
    }

    private mutating func reach(_ command: Int) {
        if isParticipant[command] { ready.append(command) } else { release(command) }
    }

    /// Lets the successors of `command` go, passing straight through non-participants.
    private mutating func release(_ command: Int) {
        var finished = [command]
        while let current = finished.popLast() {
            for next in reversed ? graph.dependencies(of: current) : graph.dependents(of: current) {
                waiting[next] -= 1
                guard waiting[next] == 0 else { continue }
                if isParticipant[next] { ready.append(next) } else { finished.append(next) }
            }
        }
    }
}
