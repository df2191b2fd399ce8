import StartupKit

/// Checks, before anything is timed, that every peer and StartupKit run each command of a graph
/// exactly once, never before its dependencies and never beyond their slots.
@MainActor
enum PeerCheck {
    /// Runs the checks and stops the bench if one fails.
    static func run() async {
        let graph = BenchGraph.windowed(count: 2_000, dependencies: 4, window: 100, durationsMs: 0...0, seed: 99)
        let prepared = PreparedGraph(graph)
        let slots = 4
        let runs: [(name: String, slots: Int?, run: @MainActor ([Body]) async -> Void)] = [
            ("StartupKit", nil, { bodies in _ = await StartupOrchestrator(graph.validPlan(bodies: bodies)).run() }),
            (
                "StartupKit \(slots) slots", slots,
                { bodies in
                    _ = await StartupOrchestrator(graph.validPlan(bodies: bodies), options: .init(maxConcurrency: slots)).run()
                }
            ),
            ("naive TaskGroup", nil, { bodies in await NaiveTaskGroupPeer.run(prepared, bodies: bodies) }),
            ("waves", nil, { bodies in await WavesPeer.run(prepared, bodies: bodies) }),
            ("sequential", 1, { bodies in await SequentialPeer.run(prepared, bodies: bodies) }),
            ("FIFO \(slots) slots", slots, { bodies in await FifoSlotsPeer.run(prepared, bodies: bodies, slots: slots) }),
        ]
        var names: [String] = []
        for check in runs {
            let log = ExecutionLog(graph)
            await check.run(log.bodies())
            let problems = await log.verdict(slots: check.slots)
            guard problems.isEmpty else {
                fatalError("\(check.name) ran \(graph.label) wrongly: \(problems.prefix(3).joined(separator: "; "))")
            }
            names.append(check.name)
        }
        Console.line("checked (each command once, after its dependencies, within its slots): " + names.joined(separator: ", "))
    }
}
