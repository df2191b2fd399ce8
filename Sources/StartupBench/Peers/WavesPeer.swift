/// Level-by-level execution: each level is one task group, awaited whole before the next starts.
enum WavesPeer {
    /// Runs every command once, one level after another.
    static func run(_ graph: PreparedGraph, bodies: [Body]) async {
        for level in graph.levels {
            await withTaskGroup(of: Void.self) { group in
                for command in level {
                    group.addTask { await bodies[command]() }
                }
                await group.waitForAll()
            }
        }
    }
}
