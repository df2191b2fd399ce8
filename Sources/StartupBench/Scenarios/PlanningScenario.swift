import StartupKit

/// Building and validating plans, for 100,000 commands with about 400,000 edges, side by side with
/// the planning floor (`PlanningFloorPeer`) on the same graph and with the same graph where every
/// third edge is an order-only (`after`) edge, and for a 1,000,000-command chain.
struct PlanningScenario: Scenario {
    let key = "plan"
    let title = "4. Planning: StartupPlanBuilder.build() against the floor (identifiers made beforehand)"

    /// Times the builder and the floor, interleaved; returns their medians and their ratio.
    func run(_ options: BenchOptions) async -> [Figure] {
        let wide = PlanningInput(
            BenchGraph.windowed(
                count: 100_000, dependencies: 4, window: 1_000, durationsMs: 0...0, seed: 1))
        Console.line("  graph: \(wide.count) commands, \(wide.edgeCount) edges")
        let builder = wide.builder()
        let ordered = wide.withOrderOnly(every: 3)
        Console.line("  the same graph with \(ordered.orderOnlyCount) of its edges order-only (after)")
        let orderedBuilder = ordered.builder()
        let contenders = [
            Contender("add + build()") { Self.time { wide.builder().validatedPlan(of: wide) } },
            Contender("build()") { Self.time { builder.validatedPlan(of: wide) } },
            Contender("floor") { Self.time { wide.floorOrder() } },
            Contender("after: add + build()") { Self.time { ordered.builder().validatedPlan(of: ordered) } },
            Contender("after: build()") { Self.time { orderedBuilder.validatedPlan(of: ordered) } },
        ]
        let samples = await Contender.interleave(contenders, repetitions: options.repetitions, warmUps: 1)
        for (index, contender) in contenders.enumerated() {
            printSamples(contender.name, samples[index])
        }

        let chain = PlanningInput(BenchGraph.chain(count: options.size(full: 1_000_000, quick: 100_000)))
        let chainBuilder = chain.builder()
        let chainSamples = await Contender.interleave(
            [
                Contender("chain add + build()") { Self.time { chain.builder().validatedPlan(of: chain) } },
                Contender("chain floor") { Self.time { chain.floorOrder() } },
                Contender("chain build()") { Self.time { chainBuilder.validatedPlan(of: chain) } },
            ], repetitions: options.size(full: 3, quick: 1), warmUps: 0)
        printSamples("chain add + build()", chainSamples[0], extra: "  (\(chain.count) commands)")
        printSamples("chain floor", chainSamples[1])
        printSamples("chain build()", chainSamples[2])
        return [
            .number("plan-100k-ms", samples[0].median, decimals: 2),
            .number("plan-100k-vs-floor", samples[1].median / samples[2].median, decimals: 2, target: .atMost(2)),
            .number("plan-floor-100k-ms", samples[2].median, decimals: 2),
            .number("plan-100k-after-ms", samples[3].median, decimals: 2),
            .number("plan-100k-after-vs-hard", samples[4].median / samples[1].median, decimals: 2, target: .atMost(1.1)),
            .number("plan-chain-1m-ms", chainSamples[0].median, decimals: 2),
        ]
    }

    /// Times `work`; whatever it returns is released only after the clock is read.
    private static func time<Result>(_ work: () -> Result) -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        let result = work()
        let elapsed = start.duration(to: clock.now)
        withExtendedLifetime(result) {}
        return elapsed
    }
}
