/// A task-group scheduler with a fixed number of slots and a first-come-first-served ready queue:
/// commands start in the order they became ready, roots in declaration order.
enum FifoSlotsPeer {
    /// Runs every command once, at most `slots` at a time.
    static func run(_ graph: PreparedGraph, bodies: [Body], slots: Int) async {
        precondition(slots > 0, "slots must be positive")
        var pending = graph.dependencyCounts
        var queue = graph.roots
        var head = 0
        var running = 0
        await withTaskGroup(of: Int.self) { group in
            while running < slots, head < queue.count {
                let next = queue[head]
                head += 1
                running += 1
                group.addTask {
                    await bodies[next]()
                    return next
                }
            }
            while let finished = await group.next() {
                running -= 1
                for dependent in graph.dependents[finished] {
                    pending[dependent] -= 1
                    if pending[dependent] == 0 { queue.append(dependent) }
                }
                while running < slots, head < queue.count {
                    let next = queue[head]
                    head += 1
                    running += 1
                    group.addTask {
                        await bodies[next]()
                        return next
                    }
                }
            }
        }
    }
}
