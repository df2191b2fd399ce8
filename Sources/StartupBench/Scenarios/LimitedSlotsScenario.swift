import StartupKit

/// Wall time with fewer slots than the graph is wide (`maxConcurrency` 4), against the lower bound
/// max(critical path, total work / slots) and a first-come-first-served peer, on a layered graph and
/// on a graph built to punish first-come-first-served.
struct LimitedSlotsScenario: Scenario {
    let key = "limited"
    let title = "3. Limited slots (maxConcurrency 4): async sleeps vs max(critical path, work / 4) and FIFO"

    /// The slot count of every run here.
    private let slots = 4

    /// The ratios measured on one graph.
    private struct Outcome {
        /// StartupKit's median wall time over the lower bound.
        let startupVsBound: Double
        /// StartupKit's median wall time over the FIFO peer's.
        let startupVsFifo: Double
        /// The FIFO peer's median wall time over the lower bound.
        let fifoVsBound: Double
    }

    /// Measures both graphs; returns the worst StartupKit/bound ratio and the adversarial StartupKit/FIFO ratio.
    func run(_ options: BenchOptions) async -> [Figure] {
        let layered = BenchGraph.layered(count: options.size(full: 300, quick: 100), maxDependencies: 3, durationsMs: 1...20, seed: 3)
        let adversarial = BenchGraph.hiddenChains(
            shortCount: options.size(full: 70, quick: 30), shortMs: 1...6, chains: 2,
            chainLength: options.size(full: 10, quick: 5), chainMs: 10...20, seed: 4)
        let onLayered = await measure(layered, name: "layered", options: options)
        let onAdversarial = await measure(adversarial, name: "adversarial", options: options)
        return [
            .number("limited-slots-vs-lower-bound", max(onLayered.startupVsBound, onAdversarial.startupVsBound), target: .atMost(1.05)),
            .number("limited-slots-vs-fifo", onAdversarial.startupVsFifo, target: .atMost(0.9)),
            .number("limited-slots-vs-lower-bound-layered", onLayered.startupVsBound),
            .number("limited-slots-vs-lower-bound-adversarial", onAdversarial.startupVsBound),
            .number("limited-slots-vs-fifo-layered", onLayered.startupVsFifo),
            .number("fifo-vs-lower-bound-layered", onLayered.fifoVsBound),
            .number("fifo-vs-lower-bound-adversarial", onAdversarial.fifoVsBound),
        ]
    }

    /// Runs StartupKit (with the durations as estimates) and the FIFO peer on one graph.
    private func measure(_ graph: BenchGraph, name: String, options: BenchOptions) async -> Outcome {
        Console.line("  \(name) graph: " + graph.shapeDescription)
        let bodies = Bodies.sleeps(milliseconds: graph.durationsMs)
        let prepared = PreparedGraph(graph)
        let plan = graph.validPlan(bodies: bodies, withEstimates: true)
        let durations = graph.intendedDurations
        let criticalPath = plan.timing(durations: durations).criticalPathDuration.benchMilliseconds
        let bound = max(criticalPath, Double(graph.totalWorkMs) / Double(slots))
        let simulated = plan.predictedWallTime(durations: durations, slots: slots).benchMilliseconds
        Console.line(
            "    lower bound max(\(Format.fixed(criticalPath, 1)), \(graph.totalWorkMs) / \(slots)) = \(Format.fixed(bound, 2)) ms;"
                + " StartupKit's order simulated without overhead: \(Format.fixed(simulated, 2)) ms (\(Format.fixed(simulated / bound, 3)) x bound)"
        )

        let orchestrator = StartupOrchestrator(plan, options: .init(maxConcurrency: slots))
        let contenders = [
            Contender("StartupKit") { await Contender.time { _ = await orchestrator.run() } },
            Contender("FIFO \(slots) slots") { await Contender.time { await FifoSlotsPeer.run(prepared, bodies: bodies, slots: slots) } },
        ]
        let samples = await Contender.interleave(contenders, repetitions: options.repetitions, warmUps: 0)
        for (index, contender) in contenders.enumerated() {
            printSamples("  " + contender.name, samples[index], extra: "  = \(Format.fixed(samples[index].median / bound, 3)) x bound")
        }
        let outcome = Outcome(
            startupVsBound: samples[0].median / bound, startupVsFifo: samples[0].median / samples[1].median,
            fifoVsBound: samples[1].median / bound)
        Console.line("    StartupKit / FIFO: \(Format.fixed(outcome.startupVsFifo, 3))")
        return outcome
    }
}
