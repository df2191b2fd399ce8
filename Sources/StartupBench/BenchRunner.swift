/// Runs the checks and the selected scenarios in order, printing as it goes.
@MainActor
struct BenchRunner {
    /// The command line's choices.
    let options: BenchOptions

    /// Every scenario, in the order they run.
    private let scenarios: [any Scenario] = [
        OverheadScenario(), MakespanScenario(), LimitedSlotsScenario(), PlanningScenario(), CLIScenario(), WaitLatencyScenario(),
        ReadyLatencyScenario(), LaunchScenario(), StopScenario(), ControlScenario(),
    ]

    /// Checks the peers, runs the scenarios, and returns every figure.
    func run() async -> [Figure] {
        let clock = ContinuousClock()
        let start = clock.now
        Console.line(
            "StartupBench: StartupKit side by side with peers; medians of \(options.repetitions) runs"
                + (options.quick ? " (QUICK smoke run: smaller graphs, figures not comparable to full runs)" : ""))
        if ["overhead", "makespan", "limited"].contains(where: options.includes) {
            await PeerCheck.run()
        }
        var figures: [Figure] = []
        for scenario in scenarios where options.includes(scenario.key) {
            Console.line("\n== \(scenario.title) ==")
            let produced = await scenario.run(options)
            Console.line("  -- figures --")
            for figure in produced {
                Console.line(figure.readableLine)
            }
            figures += produced
        }
        Console.line("\nStartupBench took \(Format.fixed(start.duration(to: clock.now).benchMilliseconds / 1_000, 1)) s")
        return figures
    }
}
