import StartupTestSupport
import Testing

@testable import StartupKit

/// Runs many seeded random graphs and checks the orchestrator's invariants against the graph.
@Suite struct OrchestratorPropertyTests {
    private func run(_ graph: RandomGraph, maxConcurrency: Int?) async throws -> (EventLog, StartupReport) {
        let log = EventLog()
        let plan = try graph.plan { index in
            log.start(index)
            // Suspend a varying number of times so that commands really interleave.
            for _ in 0..<(graph.durations[index] % 4) { await Task.yield() }
            log.finish(index)
        }
        let report = await StartupOrchestrator(plan, options: .init(maxConcurrency: maxConcurrency)).run()
        return (log, report)
    }

    private func checkInvariants(_ graph: RandomGraph, log: EventLog, report: StartupReport) {
        #expect(log.expectEachStartedOnceAfterItsDependencies(in: graph).count == graph.count, "every command runs in \(graph)")
        #expect(report.status == .succeeded)
        #expect(report.commands.allSatisfy { $0.status.isSuccess && $0.attempts == 1 })
        for command in report.commands {
            if let start = command.startOffset, let end = command.endOffset {
                #expect(start <= end && end <= report.wallTime)
            } else {
                Issue.record("\(command.id) has no start or end in \(graph)")
            }
            #expect(command.slack >= .zero)
        }
        // The report's critical path is a chain of dependencies.
        let path = report.criticalPath.map { Int($0.rawValue.dropFirst())! }
        for (earlier, later) in zip(path, path.dropFirst()) {
            #expect(graph.dependencies[later].contains(earlier), "critical path \(path) in \(graph)")
        }
        #expect(report.criticalPathDuration <= report.wallTime)
    }

    @Test(arguments: RandomGraph.all(seeds: 40))
    func run_unlimited_runsEachOnceAfterItsDependencies(graph: RandomGraph) async throws {
        let (log, report) = try await run(graph, maxConcurrency: nil)
        checkInvariants(graph, log: log, report: report)
    }

    @Test(arguments: RandomGraph.all(seeds: 40))
    func run_limited_neverExceedsMaxConcurrency(graph: RandomGraph) async throws {
        let limit = Int(graph.seed % 3) + 1
        let (log, report) = try await run(graph, maxConcurrency: limit)
        checkInvariants(graph, log: log, report: report)
        #expect(log.maxRunning <= limit, "\(log.maxRunning) ran at once with \(limit) slots in \(graph)")
    }

    @Test(arguments: RandomGraph.all(seeds: 20))
    func run_whenOneCommandFails_skipsExactlyItsTransitiveDependents(graph: RandomGraph) async throws {
        struct Boom: Error {}
        let failing = Int(graph.seed) % graph.count
        let log = EventLog()
        let plan = try graph.plan { index in
            log.start(index)
            if index == failing { throw Boom() }
            log.finish(index)
        }
        let report = await StartupOrchestrator(plan).run()
        // Reference: the transitive dependents of the failing command.
        var downstream = Set<Int>()
        for command in 0..<graph.count where graph.dependencies[command].contains(where: { $0 == failing || downstream.contains($0) }) {
            downstream.insert(command)
        }
        for command in 0..<graph.count {
            let status = report[RandomGraph.id(command)]!.status
            if command == failing {
                #expect(status.name == "failed", "c\(command) should fail in \(graph)")
            } else if downstream.contains(command) {
                guard case .skipped(let reason) = status else {
                    Issue.record("c\(command) should be skipped in \(graph), is \(status.name)")
                    continue
                }
                #expect(reason.failedCommand == RandomGraph.id(failing))
                let via = Int(String(reason.dependency.rawValue.dropFirst()))!
                #expect(graph.dependencies[command].contains(via))
            } else {
                #expect(status.isSuccess, "c\(command) is independent of the failure in \(graph)")
            }
        }
        #expect(report.status == .failed)
        #expect(
            Set(log.entries.compactMap { if case .started(let index) = $0 { index } else { nil } })
                == Set(0..<graph.count).subtracting(downstream))
    }

    /// With order-only edges and one failing command (optional or not), under a varying
    /// concurrency limit: a command never starts before a command it runs after has ended, if
    /// that one ran; the failure skips exactly its transitive dependents, never a command only
    /// ordered after one of them.
    @Test(arguments: RandomGraph.all(seeds: 20))
    func run_withAfterEdges_waitsForThoseThatRunAndSkipsNothingBecauseOfThem(graph: RandomGraph) async throws {
        struct Boom: Error {}
        let failing = Int(graph.seed) % graph.count
        let log = EventLog()
        let plan = try graph.plan(orderOnly: true) { index in
            log.start(index)
            for _ in 0..<(graph.durations[index] % 4) { await Task.yield() }
            log.finish(index)
            if index == failing { throw Boom() }
        } options: {
            CommandOptions(isOptional: $0 == failing && graph.seed % 2 == 0)
        }
        let limit = graph.seed % 3 == 0 ? nil : Int(graph.seed % 3)
        let report = await StartupOrchestrator(plan, options: .init(maxConcurrency: limit)).run()

        var downstream = Set<Int>()
        for command in 0..<graph.count where graph.dependencies[command].contains(where: { $0 == failing || downstream.contains($0) }) {
            downstream.insert(command)
        }
        let started = log.expectEachStartedOnceAfterItsDependencies(in: graph)
        var place: [EventLog.Entry: Int] = [:]
        for (index, entry) in log.entries.enumerated() { place[entry] = index }
        for command in started {
            for predecessor in graph.after[command] where started.contains(predecessor) {
                #expect(
                    (place[.finished(predecessor)] ?? .max) < place[.started(command)]!,
                    "c\(command) started before c\(predecessor), which it runs after, ended in \(graph)")
            }
        }
        for command in 0..<graph.count {
            let status = report[RandomGraph.id(command)]!.status
            if command == failing {
                #expect(status.name == "failed", "c\(command) should fail in \(graph)")
            } else if downstream.contains(command) {
                #expect(status.name == "skipped", "c\(command) should be skipped in \(graph), is \(status.name)")
            } else {
                #expect(status.isSuccess, "c\(command) is not a dependent of the failure in \(graph), is \(status.name)")
            }
        }
        #expect(started == Set(0..<graph.count).subtracting(downstream))
    }
}
