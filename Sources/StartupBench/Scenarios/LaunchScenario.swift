import StartupKit
import StartupReporting

/// An app's launch: from `start()` to the first screen's `wait(for:)` returning, on launch graphs
/// with blocking SDK initialisers, async loads, CPU work and a main-actor first screen marked
/// `.high`, against the first screen's lower bound (its own chain alone) and the peers an app
/// would write instead: the flat AppDelegate, the same list hand-ordered, a naive `TaskGroup`,
/// hand-tuned concurrent code (a `Task.detached` per step, the chain first). And
/// a launch that declares nothing, run once to learn a ``LaunchProfile`` and again with it applied.
struct LaunchScenario: Scenario {
    let key = "launch"
    let title = "8. Launch: start() to the first screen, against its own chain alone and the hand-written launches"

    /// The medians measured on one graph, in milliseconds.
    private struct Outcome {
        let graph: LaunchGraph
        let bound: Double
        let startupKit: (firstScreen: Double, end: Double)
        let flat: Double
        let handOrdered: Double
        let naive: (firstScreen: Double, end: Double)
        let handTuned: (firstScreen: Double, end: Double)
    }

    func run(_ options: BenchOptions) async -> [Figure] {
        let graphs = [LaunchGraph.blockingStorm(), LaunchGraph.slotsFour(), LaunchGraph.blockingBesideAsync()]
        var outcomes: [Outcome] = []
        for graph in graphs { outcomes.append(await measure(graph, options: options)) }

        var figures: [Figure] = [
            .number(
                "launch-first-screen-vs-lower-bound", outcomes.map { $0.startupKit.firstScreen / $0.bound }.max() ?? 0,
                target: .atMost(1.03))
        ]
        let unlimited = outcomes.filter { $0.graph.slots == nil }
        figures.append(
            .number("launch-end-vs-naive-taskgroup", unlimited.map { $0.startupKit.end / $0.naive.end }.max() ?? 0, target: .atMost(1.0)))
        if let limited = outcomes.first(where: { $0.graph.slots != nil }), let slots = limited.graph.slots {
            let bound = max(Double(limited.graph.criticalPathMilliseconds), Double(limited.graph.totalMilliseconds) / Double(slots))
            figures.append(.number("launch-slots-end-vs-lower-bound", limited.startupKit.end / bound, target: .atMost(1.05)))
        }
        for outcome in outcomes {
            let name = outcome.graph.name
            figures += [
                .number("launch-first-screen-vs-lower-bound-\(name)", outcome.startupKit.firstScreen / outcome.bound),
                .number("launch-flat-vs-lower-bound-\(name)", outcome.flat / outcome.bound),
                .number("launch-hand-ordered-vs-lower-bound-\(name)", outcome.handOrdered / outcome.bound),
                .number("launch-naive-taskgroup-vs-lower-bound-\(name)", outcome.naive.firstScreen / outcome.bound),
                .number("launch-hand-tuned-vs-lower-bound-\(name)", outcome.handTuned.firstScreen / outcome.bound),
            ]
        }
        figures += await learned(options)
        return figures
    }

    /// `launch-learned-end-vs-lower-bound`: a launch with a slot limit, an adversarial declaration
    /// order and no estimates, run once to learn, then again with the profile applied; its end
    /// against its lower bound (the critical path, or all work over the slots), the first run's
    /// figure beside it.
    private func learned(_ options: BenchOptions) async -> [Figure] {
        let graph = LaunchGraph.learnedOrder()
        let slots = graph.slots ?? 1
        let bound = max(Double(graph.criticalPathMilliseconds), Double(graph.totalMilliseconds) / Double(slots))
        Console.line(
            "  \(graph.name): \(graph.steps.count) steps, maxConcurrency \(slots), no estimates declared; "
                + "the lower bound is \(Format.fixed(bound, 0)) ms (critical path \(graph.criticalPathMilliseconds) ms, "
                + "all work \(graph.totalMilliseconds) ms)")
        let plan = graph.plan(isMarked: false)
        let runOptions = StartupOrchestrator.Options(maxConcurrency: slots)
        var unlearned = Samples()
        var learned = Samples()
        for round in 0...options.repetitions {
            let first = await StartupOrchestrator(plan, options: runOptions).run()
            var profile = LaunchProfile()
            profile.record(first)
            let second = await StartupOrchestrator(profile.applied(to: plan), options: runOptions).run()
            guard round > 0 else { continue }  // The first round warms up.
            unlearned.append(first.wallTime)
            learned.append(second.wallTime)
        }
        let perBound = { (samples: Samples) in "  = \(Format.fixed(samples.median / bound, 3)) x bound" }
        printSamples("first run (unlearned)", unlearned, extra: perBound(unlearned))
        printSamples("with the profile", learned, extra: perBound(learned))
        return [
            .number("launch-learned-end-vs-lower-bound", learned.median / bound, target: .atMost(1.05)),
            .number("launch-unlearned-end-vs-lower-bound", unlearned.median / bound),
        ]
    }

    /// Runs every contender on one graph in interleaved rounds, after one untimed round; prints a
    /// line per contender (first screen, and the whole launch where it is measured).
    private func measure(_ graph: LaunchGraph, options: BenchOptions) async -> Outcome {
        let slots = graph.slots.map { "maxConcurrency \($0)" } ?? "no slot limit"
        Console.line(
            "  \(graph.name): \(graph.steps.count) steps, \(slots); the first screen's chain is \(graph.chainMilliseconds) ms, "
                + "the critical path \(graph.criticalPathMilliseconds) ms, all work \(graph.totalMilliseconds) ms")
        let plan = graph.plan()
        var bound = Samples()
        var startupFirst = Samples()
        var startupEnd = Samples()
        var flat = Samples()
        var handOrdered = Samples()
        var naiveFirst = Samples()
        var naiveEnd = Samples()
        var handTunedFirst = Samples()
        var handTunedEnd = Samples()
        for round in 0...options.repetitions {
            let chain = await LaunchContenders.chainAlone(graph)
            let kit = await LaunchContenders.startupKit(graph, plan: plan)
            let flatTimes = await LaunchContenders.flat(graph)
            let handTimes = await LaunchContenders.handOrdered(graph)
            let naive = await LaunchContenders.naiveTaskGroup(graph)
            let handTuned = await LaunchContenders.handTuned(graph)
            guard round > 0 else { continue }  // The first round warms up.
            bound.append(chain)
            startupFirst.append(kit.firstScreen)
            startupEnd.append(kit.end)
            flat.append(flatTimes.firstScreen)
            handOrdered.append(handTimes.firstScreen)
            naiveFirst.append(naive.firstScreen)
            naiveEnd.append(naive.end)
            handTunedFirst.append(handTuned.firstScreen)
            handTunedEnd.append(handTuned.end)
        }
        let boundMedian = bound.median
        let perBound = { (samples: Samples) in "  = \(Format.fixed(samples.median / boundMedian, 3)) x bound" }
        let ends = { (samples: Samples) in "; whole launch \(Format.fixed(samples.median, 2)) ms" }
        printSamples("lower bound (chain)", bound)
        printSamples("StartupKit", startupFirst, extra: perBound(startupFirst) + ends(startupEnd))
        printSamples("flat AppDelegate", flat, extra: perBound(flat))
        printSamples("hand-ordered", handOrdered, extra: perBound(handOrdered))
        printSamples("naive TaskGroup", naiveFirst, extra: perBound(naiveFirst) + ends(naiveEnd))
        printSamples("hand-tuned", handTunedFirst, extra: perBound(handTunedFirst) + ends(handTunedEnd))
        return Outcome(
            graph: graph, bound: boundMedian, startupKit: (startupFirst.median, startupEnd.median), flat: flat.median,
            handOrdered: handOrdered.median, naive: (naiveFirst.median, naiveEnd.median),
            handTuned: (handTunedFirst.median, handTunedEnd.median))
    }
}
