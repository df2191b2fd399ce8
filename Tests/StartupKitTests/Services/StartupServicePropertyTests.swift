import StartupKit
import StartupSeededRandom
import StartupTestSupport
import Testing

/// Services on many seeded random graphs, some commands made services at random, checked against
/// plain references: nothing starts before every service it depends on is ready, each service
/// is started once, and the shutdown stops each service only after every service that depends on
/// it (directly or through commands) has stopped.
@Suite(.timeLimit(.minutes(2))) struct StartupServicePropertyTests {
    /// The services among `position`'s transitive dependents, by a plain walk.
    private func dependentServices(of position: Int, in graph: RandomGraph, services: Set<Int>) -> Set<Int> {
        var dependents: [[Int]] = Array(repeating: [], count: graph.count)
        for (command, dependencies) in graph.dependencies.enumerated() {
            for dependency in dependencies { dependents[dependency].append(command) }
        }
        var seen = Set<Int>()
        var stack = dependents[position]
        while let next = stack.popLast() {
            if seen.insert(next).inserted { stack += dependents[next] }
        }
        return seen.intersection(services)
    }

    @Test(arguments: RandomGraph.all(seeds: 12))
    func dependentsStartAfterReady_andShutdownStopsInReverseOrder(graph: RandomGraph) async throws {
        var random = SeededGenerator(seed: graph.seed &+ 7)
        let services = Set((0..<graph.count).filter { _ in Bool.random(using: &random) })
        let log = EventLog()
        let stops = Log()
        var builder = StartupPlanBuilder()
        for index in 0..<graph.count {
            let id = RandomGraph.id(index)
            let dependencies = graph.dependencies[index].map(RandomGraph.id)
            if services.contains(index) {
                builder.addService(id, dependsOn: dependencies) { _, ready in
                    log.start(index)
                    await Task.yield()
                    log.finish(index)  // ready
                    ready()
                    try? await hangUntilCancelled()
                    stops.append("\(index)")
                }
            } else {
                builder.add(id, dependsOn: dependencies) { _ in
                    log.start(index)
                    await Task.yield()
                    log.finish(index)
                }
            }
        }
        let run = StartupOrchestrator(try builder.build(), options: .init(maxConcurrency: Int.random(in: 1...4, using: &random))).start()
        let report = await run.report()
        #expect(report.status == .succeeded, "\(graph)")

        #expect(log.expectEachStartedOnceAfterItsDependencies(in: graph).count == graph.count, "\(graph)")

        let stopped = await run.shutdown()
        #expect(stopped.status == .succeeded, "\(graph)")
        #expect(Set(stopped.stopOrder) == Set(services.map(RandomGraph.id)), "\(graph)")
        let stopPlace = Dictionary(uniqueKeysWithValues: stops.entries.enumerated().map { (Int($0.element)!, $0.offset) })
        for service in services {
            for dependent in dependentServices(of: service, in: graph, services: services) {
                #expect(stopPlace[dependent]! < stopPlace[service]!, "c\(service) stopped before its dependent c\(dependent) in \(graph)")
            }
        }
    }
}
