import StartupTestSupport
import Testing

@testable import StartupKit

/// Checks the plan's timing analysis and simulation against brute force on small random graphs.
@Suite struct PlanTimingTests {
    /// Longest path ending at each command, including it, by trying every path (exponential,
    /// fine for the small graphs here).
    private func longestPathEnding(at command: Int, in graph: RandomGraph) -> Int64 {
        let before = graph.dependencies[command].map { longestPathEnding(at: $0, in: graph) }.max() ?? 0
        return before + graph.durations[command]
    }

    private func longestPathStarting(at command: Int, in graph: RandomGraph) -> Int64 {
        let dependents = (0..<graph.count).filter { graph.dependencies[$0].contains(command) }
        let after = dependents.map { longestPathStarting(at: $0, in: graph) }.max() ?? 0
        return after + graph.durations[command]
    }

    private func durations(_ graph: RandomGraph) -> [CommandID: Duration] {
        Dictionary(uniqueKeysWithValues: (0..<graph.count).map { (RandomGraph.id($0), Duration.nanoseconds(graph.durations[$0])) })
    }

    @Test(arguments: RandomGraph.all(seeds: 60).map { RandomGraph(shape: $0.shape, seed: $0.seed, maxCount: 12) })
    func timing_matchesBruteForce(graph: RandomGraph) throws {
        let plan = try graph.plan()
        let timing = plan.timing(durations: durations(graph))
        let makespan = (0..<graph.count).map { longestPathEnding(at: $0, in: graph) }.max() ?? 0
        #expect(timing.criticalPathDuration == .nanoseconds(makespan))
        for command in 0..<graph.count {
            let entry = try #require(timing[RandomGraph.id(command)])
            let earliest = longestPathEnding(at: command, in: graph) - graph.durations[command]
            let latest = makespan - longestPathStarting(at: command, in: graph)
            #expect(entry.earliestStart == .nanoseconds(earliest), "earliest start of c\(command)")
            #expect(entry.latestStart == .nanoseconds(latest), "latest start of c\(command)")
            #expect(entry.slack == .nanoseconds(latest - earliest))
        }
        // The critical path is a chain of dependencies whose durations add up to the makespan.
        let path = timing.criticalPath.map { Int($0.rawValue.dropFirst())! }
        #expect(path.map { graph.durations[$0] }.reduce(0, +) == makespan)
        for (earlier, later) in zip(path, path.dropFirst()) {
            #expect(graph.dependencies[later].contains(earlier))
        }
        if let first = path.first { #expect(graph.dependencies[first].isEmpty) }
        #expect(path.allSatisfy { timing.entries[$0].slack == .zero })
    }

    /// A plain list scheduler, one time step per event, with the orchestrator's order.
    private func referenceMakespan(_ graph: RandomGraph, plan: StartupPlan, slots: Int) -> Int64 {
        let keys = plan.storage.readyKeys
        var done = Set<Int>()
        var running: [(finish: Int64, command: Int)] = []
        var started = Set<Int>()
        var now: Int64 = 0
        while done.count < graph.count {
            let ready = (0..<graph.count)
                .filter { !started.contains($0) && graph.dependencies[$0].allSatisfy(done.contains) }
                .sorted { keys[$0] < keys[$1] }
            for command in ready.prefix(max(0, slots - running.count)) {
                started.insert(command)
                running.append((now + graph.durations[command], command))
            }
            now = running.map(\.finish).min()!
            for finished in running where finished.finish == now { done.insert(finished.command) }
            running.removeAll { $0.finish == now }
        }
        return now
    }

    @Test(arguments: RandomGraph.all(seeds: 40))
    func predictedWallTime_matchesReferenceSchedule(graph: RandomGraph) throws {
        let plan = try graph.plan(options: { CommandOptions(priority: CommandPriority(graph.priorities[$0])) })
        let durations = durations(graph)
        for slots in [1, 2, 3] {
            #expect(
                plan.predictedWallTime(durations: durations, slots: slots)
                    == .nanoseconds(referenceMakespan(graph, plan: plan, slots: slots)), "\(slots) slots")
        }
        #expect(plan.predictedWallTime(durations: durations) == plan.timing(durations: durations).criticalPathDuration)
        #expect(plan.predictedWallTime(durations: durations, slots: 1) == .nanoseconds(graph.durations.reduce(0, +)))
    }

    @Test func timing_withoutDurations_usesEstimates() throws {
        var builder = StartupPlanBuilder()
        builder.add("a", options: CommandOptions(estimate: .milliseconds(40))) { _ in }
        builder.add("b", dependsOn: ["a"], options: CommandOptions(estimate: .milliseconds(120))) { _ in }
        builder.add("c", dependsOn: ["a"]) { _ in }
        let timing = try builder.build().timing()
        #expect(timing.criticalPath == ["a", "b"])
        #expect(timing.criticalPathDuration == .milliseconds(160))
        #expect(timing["c"]?.slack == .milliseconds(120))
        #expect(timing["c"]?.earliestStart == .milliseconds(40))
    }
}
