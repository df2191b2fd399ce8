/// The obvious way to run a DAG with structured concurrency: one child task per command in a
/// `withTaskGroup`, driven by dependency counts; a command's child is added when its count hits zero.
enum NaiveTaskGroupPeer {
    /// Runs every command once, each as soon as its dependencies have finished, without a slot limit.
    static func run(_ graph: PreparedGraph, bodies: [Body]) async {
        var pending = graph.dependencyCounts
        await withTaskGroup(of: Int.self) { group in
            for root in graph.roots {
                group.addTask {
                    await bodies[root]()
                    return root
                }
            }
            while let finished = await group.next() {
                for dependent in graph.dependents[finished] {
                    pending[dependent] -= 1
                    if pending[dependent] == 0 {
                        group.addTask {
                            await bodies[dependent]()
                            return dependent
                        }
                    }
                }
            }
        }
    }
}
