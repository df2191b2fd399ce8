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
        var countdown = ReleaseCountdown(graph: graph, direction: .dependencyOrder)
        var ready = PriorityHeap<ReadyKey>()
        for command in countdown.roots {
            ready.insert(readyKeys[command])
        }
        var running = PriorityHeap<Finish>()
        var released: [Int] = []
        var now: Int64 = 0
        while true {
            while running.count < slots, let next = ready.popMin() {
                running.insert(Finish(time: now.addingSaturating(max(0, durations[next.position])), position: next.position))
            }
            guard let first = running.popMin() else { return now }
            now = first.time
            countdown.finish(first.position, into: &released)
            while let other = running.min, other.time == now {
                countdown.finish(running.popMin()!.position, into: &released)
            }
            for command in released { ready.insert(readyKeys[command]) }
            released.removeAll(keepingCapacity: true)
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
