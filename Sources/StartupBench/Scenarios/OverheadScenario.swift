import StartupKit

/// Scheduling overhead: 100,000 no-op commands in a windowed random DAG (4 dependencies each), run by
/// StartupKit and by the naive task group, waves and sequential peers; only the run is timed.
struct OverheadScenario: Scenario {
    let key = "overhead"
    let title = "1. Scheduling overhead: no-op commands, unlimited concurrency (time of run() only)"

    /// Measures the four contenders and returns per-command costs and the StartupKit/naive ratio.
    func run(_ options: BenchOptions) async -> [Figure] {
        let count = options.size(full: 100_000, quick: 10_000)
        let graph = BenchGraph.windowed(count: count, dependencies: 4, window: 1_000, durationsMs: 0...0, seed: 1)
        Console.line("  graph: " + graph.shapeDescription)
        let bodies = Bodies.noOps(count: count)
        let prepared = PreparedGraph(graph)
        let orchestrator = StartupOrchestrator(graph.validPlan(bodies: bodies))

        let contenders = [
            Contender("StartupKit") {
                let clock = ContinuousClock()
                let start = clock.now
                let report = await orchestrator.run()
                let elapsed = start.duration(to: clock.now)
                precondition(report.status == .succeeded, "StartupKit run did not succeed")
                return elapsed
            },
            Contender("naive TaskGroup") { await Contender.time { await NaiveTaskGroupPeer.run(prepared, bodies: bodies) } },
            Contender("waves") { await Contender.time { await WavesPeer.run(prepared, bodies: bodies) } },
            Contender("sequential") { await Contender.time { await SequentialPeer.run(prepared, bodies: bodies) } },
        ]
        let samples = await Contender.interleave(contenders, repetitions: options.repetitions, warmUps: 1)
        let nanosecondsPerCommand = samples.map { $0.median * 1e6 / Double(count) }
        for (index, contender) in contenders.enumerated() {
            printSamples(contender.name, samples[index], extra: "  = \(Format.fixed(nanosecondsPerCommand[index], 1)) ns/command")
        }
        return [
            .number("overhead-ns-per-command", nanosecondsPerCommand[0], decimals: 1),
            .number("overhead-vs-naive-taskgroup", nanosecondsPerCommand[0] / nanosecondsPerCommand[1], target: .atMost(0.5)),
            .number("naive-taskgroup-ns-per-command", nanosecondsPerCommand[1], decimals: 1),
            .number("waves-ns-per-command", nanosecondsPerCommand[2], decimals: 1),
            .number("sequential-ns-per-command", nanosecondsPerCommand[3], decimals: 1),
        ]
    }
}
