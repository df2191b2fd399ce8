import StartupKit
import StartupSupport

/// How soon a task waiting on a run (`StartupRun.wait(for:)`) resumes once the awaited command
/// has ended: the time from the command's last line to the waiter's first, over many runs.
struct WaitLatencyScenario: Scenario {
    let key = "wait"
    let title = "6. Wait latency: an awaited command's end to the waiting task's resumption"

    /// Measures one run per round: a command held until the waiter waits, then released.
    func run(_ options: BenchOptions) async -> [Figure] {
        var samples = Samples()
        for _ in 0..<options.size(full: 300, quick: 50) {
            let (release, releaser) = AsyncStream<Void>.makeStream()
            let end = Locked<ContinuousClock.Instant?>(nil)
            var builder = StartupPlanBuilder()
            builder.add("work") { _ in
                for await _ in release { break }
                end.withLock { $0 = .now }
            }
            guard let plan = try? builder.build() else { preconditionFailure("a one-command plan is valid") }
            let run = StartupOrchestrator(plan).start()
            let waiter = Task {
                try? await run.wait(for: ["work"])
                return ContinuousClock.now
            }
            // Let the waiter reach its wait; a bench may sleep, it only delays the release.
            try? await Task.sleep(for: .milliseconds(1))
            releaser.yield()
            let resumed = await waiter.value
            if let ended = end.withLock({ $0 }) { samples.append(ended.duration(to: resumed)) }
            _ = await run.report()
        }
        let microseconds = samples.median * 1_000
        Console.line(
            "  " + Format.padded("StartupRun.wait", 22) + "median \(Format.fixed(microseconds, 1)) µs "
                + "(min \(Format.fixed(samples.min * 1_000, 1)), max \(Format.fixed(samples.max * 1_000, 1)), n=\(samples.milliseconds.count))"
        )
        return [.number("wait-latency-us", microseconds, decimals: 1, target: .atMost(50))]
    }
}
