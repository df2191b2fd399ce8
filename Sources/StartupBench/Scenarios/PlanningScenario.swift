import StartupKit

/// Building and validating plans: `StartupPlanBuilder.add` for every command, then `build()`, for
/// 100,000 commands with about 400,000 edges and for a 1,000,000-command chain.
struct PlanningScenario: Scenario {
    let key = "plan"
    let title = "4. Planning: StartupPlanBuilder.add + build (identifiers made beforehand)"

    /// Times both builds; returns their medians in milliseconds.
    func run(_ options: BenchOptions) async -> [Figure] {
        let wide = BenchGraph.windowed(count: 100_000, dependencies: 4, window: 1_000, durationsMs: 0...0, seed: 1)
        let wideTime = measureBuild(of: wide, repetitions: options.repetitions)
        printSamples("100k commands", wideTime, extra: "  (\(wide.count) commands, \(wide.edgeCount) edges)")

        let chainCount = options.size(full: 1_000_000, quick: 100_000)
        let chain = BenchGraph.chain(count: chainCount)
        let chainTime = measureBuild(of: chain, repetitions: options.size(full: 3, quick: 1))
        printSamples("chain", chainTime, extra: "  (\(chain.count) commands)")
        return [
            .number("plan-100k-ms", wideTime.median, decimals: 2, target: .below(50)),
            .number("plan-chain-1m-ms", chainTime.median, decimals: 2),
        ]
    }

    /// Builds a plan of `graph` `repetitions` times; the identifiers and dependency lists are made
    /// once, before timing, as a caller would already have them.
    private func measureBuild(of graph: BenchGraph, repetitions: Int) -> Samples {
        let ids = graph.commandIDs
        let dependencyIDs = graph.dependencies.map { $0.map { ids[$0] } }
        let noOp: @Sendable (StartupContext) async throws -> Void = { _ in }
        var samples = Samples()
        for _ in 0..<repetitions {
            let clock = ContinuousClock()
            let start = clock.now
            var builder = StartupPlanBuilder()
            for command in ids.indices {
                builder.add(ids[command], dependsOn: dependencyIDs[command], execute: noOp)
            }
            let plan: StartupPlan
            do {
                plan = try builder.build()
            } catch {
                fatalError("StartupBench generated an invalid graph (\(graph.label)): \(error)")
            }
            samples.append(start.duration(to: clock.now))
            precondition(plan.count == graph.count, "the plan lost commands")
        }
        return samples
    }
}
