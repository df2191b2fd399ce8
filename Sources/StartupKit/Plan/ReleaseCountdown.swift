/// Counts, for every command, the predecessors it still waits for, and releases it when the last
/// one has finished: the one "a command may go once its dependencies are done" walk, shared by
/// the orchestrator's scheduler, the list-schedule simulation and the lifecycle's walks.
///
/// In dependency order a command waits for its dependencies and the commands it runs `after`; in
/// reverse dependency order (a shutdown) it waits for its successors of both kinds. In required
/// order (the orchestrator's) it waits for its dependencies only, and its caller decides about
/// order-only edges, which wait only for commands that run.
struct ReleaseCountdown: Sendable {
    /// Which way the walk goes.
    enum Direction: Sendable {
        /// A command goes after its dependencies.
        case dependencyOrder
        /// A command goes after its dependents.
        case reverseDependencyOrder
        /// A command goes after its dependencies; order-only edges are not counted.
        case requiredOrder
    }

    /// The successors of each command in the walk's direction, in compressed adjacency form:
    /// `successorList[successorStart[i]..<successorEnd[i]]`, where `successorEnd` is empty when
    /// each slice ends where the next begins.
    private let successorStart: [Int]
    private let successorList: [Int]
    private let successorEnd: [Int]
    /// How many predecessors each command still waits for.
    private var waiting: [Int32]

    /// Starts a walk in which nothing has finished yet.
    ///
    /// - Complexity: O(commands).
    init(graph: DependencyGraph, direction: Direction) {
        let predecessorStart: [Int]
        switch direction {
        case .dependencyOrder:
            (successorStart, successorList, predecessorStart) = (graph.dependentStart, graph.dependentList, graph.dependencyStart)
            successorEnd = []
        case .reverseDependencyOrder:
            (successorStart, successorList, predecessorStart) = (graph.dependencyStart, graph.dependencyList, graph.dependentStart)
            successorEnd = []
        case .requiredOrder:
            (successorStart, successorList, predecessorStart) = (graph.dependentStart, graph.dependentList, graph.dependencyStart)
            successorEnd = graph.orderOnlyDependentStart
        }
        if direction == .requiredOrder, graph.hasOrderOnly {
            let requiredEnd = graph.orderOnlyDependencyStart
            waiting = (0..<graph.count).map { Int32(requiredEnd[$0] - predecessorStart[$0]) }
        } else {
            waiting = (0..<graph.count).map { Int32(predecessorStart[$0 + 1] - predecessorStart[$0]) }
        }
    }

    /// The commands that wait for nothing, in declaration order.
    var roots: [Int] {
        waiting.indices.filter { waiting[$0] == 0 }
    }

    /// Whether every predecessor of `command` has finished.
    func isReleased(_ command: Int) -> Bool {
        waiting[command] == 0
    }

    /// Marks `command` as finished and appends to `released` each successor whose last
    /// predecessor it was, in declaration order.
    ///
    /// - Complexity: O(successors of `command`).
    @inline(__always)
    mutating func finish(_ command: Int, into released: inout [Int]) {
        let end = successorEnd.isEmpty ? successorStart[command + 1] : successorEnd[command]
        for edge in successorStart[command]..<end {
            let successor = successorList[edge]
            waiting[successor] -= 1
            if waiting[successor] == 0 { released.append(successor) }
        }
    }
}
