/// Simulates running a graph with a number of slots and known durations, starting ready commands
/// in the orchestrator's order, without any overhead.
enum ListScheduleSimulation {
    /// The simulated wall time, in nanoseconds.
    ///
    /// Commands finishing at the same moment all release their dependents before any new command
    /// takes a slot. Negative durations count as zero; time saturates at `Int64.max` (292 years).
    ///
    /// - Complexity: O((commands + edges) log commands).
    static func makespan(graph: DependencyGraph, durations: [Int64], readyKeys: [ReadyKey], slots: Int) -> Int64 {
        var pending = (0..<graph.count).map { graph.dependencies(of: $0).count }
        var ready = PriorityHeap<ReadyKey>()
        for command in 0..<graph.count where pending[command] == 0 {
            ready.insert(readyKeys[command])
        }
        var running = PriorityHeap<Finish>()
        var now: Int64 = 0
        while true {
            while running.count < slots, let next = ready.popMin() {
                running.insert(Finish(time: now.addingSaturating(max(0, durations[next.position])), position: next.position))
            }
            guard let first = running.popMin() else { return now }
            now = first.time
            var finished = [first.position]
            while let other = running.min, other.time == now {
                finished.append(running.popMin()!.position)
            }
            for command in finished {
                for dependent in graph.dependents(of: command) {
                    pending[dependent] -= 1
                    if pending[dependent] == 0 { ready.insert(readyKeys[dependent]) }
                }
            }
        }
    }

    /// A running command's finish time; earlier first.
    private struct Finish: Comparable {
        let time: Int64
        let position: Int

        static func < (lhs: Finish, rhs: Finish) -> Bool {
            (lhs.time, lhs.position) < (rhs.time, rhs.position)
        }
    }
}
