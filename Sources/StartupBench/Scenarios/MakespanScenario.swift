import StartupKit

/// Wall time with real waiting and unlimited slots: ~300 commands sleeping 1-20 ms in a random DAG,
/// against the critical path of the intended durations (the physical limit).
struct MakespanScenario: Scenario {
    let key = "makespan"
    let title = "2. Makespan with unlimited slots: async sleeps of 1-20 ms vs the critical path"

    /// Measures StartupKit, waves and the naive task group; returns wall / critical path for each.
    func run(_ options: BenchOptions) async -> [Figure] {
        let graph = BenchGraph.random(count: options.size(full: 300, quick: 100), maxDependencies: 3, durationsMs: 1...20, seed: 2)
        Console.line("  graph: " + graph.shapeDescription)
        let bodies = Bodies.sleeps(milliseconds: graph.durationsMs)
        let prepared = PreparedGraph(graph)
        let plan = graph.validPlan(bodies: bodies)
        let criticalPath = plan.timing(durations: graph.intendedDurations).criticalPathDuration.benchMilliseconds
        precondition(Int(criticalPath.rounded()) == graph.criticalPathMs, "StartupKit and the bench disagree on the critical path")
        Console.line("  critical path (plan.timing of the intended durations): \(Format.fixed(criticalPath, 2)) ms")

        let orchestrator = StartupOrchestrator(plan)
        let contenders = [
            Contender("StartupKit") { await Contender.time { _ = await orchestrator.run() } },
            Contender("waves") { await Contender.time { await WavesPeer.run(prepared, bodies: bodies) } },
            Contender("naive TaskGroup") { await Contender.time { await NaiveTaskGroupPeer.run(prepared, bodies: bodies) } },
        ]
        let samples = await Contender.interleave(contenders, repetitions: options.repetitions, warmUps: 0)
        let ratios = samples.map { $0.median / criticalPath }
        for (index, contender) in contenders.enumerated() {
            printSamples(contender.name, samples[index], extra: "  = \(Format.fixed(ratios[index], 3)) x critical path")
        }
        return [
            .number("makespan-vs-critical-path", ratios[0], target: .atMost(1.02)),
            .number("waves-makespan-vs-critical-path", ratios[1]),
            .number("naive-taskgroup-makespan-vs-critical-path", ratios[2]),
        ]
    }
}
