import StartupKit
import StartupSeededRandom
import StartupTestSupport
import Testing

/// Holding a run, checked on many seeded random graphs against simple references: waits,
/// on-demand commands and gates.
@Suite(.timeLimit(.minutes(2))) struct StartupRunPropertyTests {
    /// `positions` and everything they need, by a plain walk.
    private func closure(of positions: some Sequence<Int>, in graph: RandomGraph) -> Set<Int> {
        var result = Set<Int>()
        var stack = Array(positions)
        while let position = stack.popLast() {
            if result.insert(position).inserted { stack += graph.dependencies[position] }
        }
        return result
    }

    private func pick(_ count: Int, of range: Range<Int>, _ random: inout SeededGenerator) -> [Int] {
        Array(range.shuffled(using: &random).prefix(count))
    }

    @Test(arguments: RandomGraph.all(seeds: 20))
    func wait_returnsAfterEveryAwaitedCommandEnded_withoutWaitingForUnrelatedOnes(graph: RandomGraph) async throws {
        var random = SeededGenerator(seed: graph.seed &+ 1)
        let awaited = pick(Int.random(in: 1...3, using: &random), of: 0..<graph.count, &random)
        let needed = closure(of: awaited, in: graph)
        let unrelated = Gate()
        let log = EventLog()
        let plan = try graph.plan { index in
            log.start(index)
            if !needed.contains(index) { await unrelated.wait() }
            for _ in 0..<(graph.durations[index] % 3) { await Task.yield() }
            log.finish(index)
        }
        // Unlimited slots: held commands in every slot would starve the awaited ones.
        let run = StartupOrchestrator(plan).start()

        try await run.wait(for: awaited.map(RandomGraph.id))
        let finishedAtReturn = Set(log.entries.compactMap { if case .finished(let index) = $0 { index } else { nil } })
        #expect(needed.isSubset(of: finishedAtReturn), "wait returned before \(needed.subtracting(finishedAtReturn)) in \(graph)")
        #expect(finishedAtReturn.isSubset(of: needed), "an unrelated command finished although it was held in \(graph)")
        unrelated.open()
        let report = await run.report()
        #expect(report.status == .succeeded)
        log.expectEachStartedOnceAfterItsDependencies(in: graph)
    }

    @Test(arguments: RandomGraph.all(seeds: 20))
    func onDemandCommands_runExactlyWhenRequestedOrNeeded(graph: RandomGraph) async throws {
        var random = SeededGenerator(seed: graph.seed &+ 2)
        let onDemand = Set((0..<graph.count).filter { _ in Bool.random(using: &random) })
        let requested = pick(Int.random(in: 0...2, using: &random), of: 0..<graph.count, &random)
        let log = EventLog()
        let plan = try graph.plan(
            body: { index in
                log.start(index)
                await Task.yield()
                log.finish(index)
            }, options: { CommandOptions(activation: onDemand.contains($0) ? .onDemand : .eager) })
        let run = StartupOrchestrator(plan).start()
        for position in requested { try await run.wait(for: [RandomGraph.id(position)]) }
        let report = await run.report()

        let expected = closure(of: (0..<graph.count).filter { !onDemand.contains($0) } + requested, in: graph)
        let ran = Set(log.entries.compactMap { if case .started(let index) = $0 { index } else { nil } })
        #expect(ran == expected, "ran \(ran.sorted()), expected \(expected.sorted()) in \(graph)")
        for position in 0..<graph.count {
            let status = try #require(report[RandomGraph.id(position)]).status
            #expect(status == (expected.contains(position) ? .succeeded : .notRequested), "c\(position) in \(graph)")
        }
        #expect(report.status == .succeeded)
        log.expectEachStartedOnceAfterItsDependencies(in: graph)
    }

    @Test(arguments: RandomGraph.all(seeds: 20))
    func gatedCommands_neverStartBeforeTheGateOpens(graph: RandomGraph) async throws {
        var random = SeededGenerator(seed: graph.seed &+ 3)
        let gates = Set((0..<graph.count).filter { _ in Int.random(in: 0..<4, using: &random) == 0 })
        let order = Log()
        var builder = StartupPlanBuilder()
        for index in 0..<graph.count {
            let dependencies = graph.dependencies[index].map(RandomGraph.id)
            if gates.contains(index) {
                builder.addGate(RandomGraph.id(index), dependsOn: dependencies)
            } else {
                builder.add(RandomGraph.id(index), dependsOn: dependencies) { _ in order.append("start c\(index)") }
            }
        }
        let run = StartupOrchestrator(try builder.build()).start()
        for gate in gates.shuffled(using: &random) {
            for _ in 0..<3 { await Task.yield() }
            order.append("open c\(gate)")
            run.open(RandomGraph.id(gate))
        }
        let report = await run.report()
        #expect(report.status == .succeeded)

        let entries = order.entries
        for index in 0..<graph.count where !gates.contains(index) {
            let start = try #require(entries.firstIndex(of: "start c\(index)"), "c\(index) never ran in \(graph)")
            for ancestor in closure(of: graph.dependencies[index], in: graph) where gates.contains(ancestor) {
                let opened = try #require(entries.firstIndex(of: "open c\(ancestor)"))
                #expect(opened < start, "c\(index) started before gate c\(ancestor) opened in \(graph)")
            }
        }
    }
}
