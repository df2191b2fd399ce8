import StartupKit
import StartupManifest
import StartupSeededRandom
import StartupSupport
import Testing

@testable import StartupCLI

/// The order of a move over several commands (`restart --cascade`, `stop --cascade`, `start`, a reload): each
/// command's step begins only after the steps of its neighbours among them that come first have ended, each runs
/// once, a failure leaves what comes after it alone, and the critical path follows the latest chain. Checked on
/// random graphs against the graph itself; the steps are instant, their times are sequence numbers.
@Suite struct MoveCascadeTests {
    /// Hands out increasing times, so a step's times say what ended before what.
    final class Ticks: Sendable {
        private let next = Locked(0)
        func tick() -> Duration {
            .milliseconds(
                next.withLock {
                    $0 += 1
                    return $0
                })
        }
    }

    static func randomManifest(seed: UInt64, count: Int) -> Manifest {
        var generator = SeededGenerator(seed: seed)
        let commands = (0..<count).map { index in
            let dependencies = (0..<index).filter { _ in Int.random(in: 0..<4, using: &generator) == 0 }.map { CommandID("c\($0)") }
            return ManifestCommand(id: CommandID("c\(index)"), dependencies: dependencies, run: "true")
        }
        return Manifest(commands: commands)
    }

    @Test(arguments: 0..<40 as Range<UInt64>)
    func eachStep_comesAfterItsNeighbours_once_andAFailureStopsWhatComesAfterIt(seed: UInt64) async throws {
        let manifest = Self.randomManifest(seed: seed, count: 14)
        let graph = CommandGraph(plan: try manifest.makePlan(ManifestLoading.graphOnly(manifest)))
        var generator = SeededGenerator(seed: seed &+ 1000)
        let chosen = manifest.commands.map(\.id).filter { _ in Bool.random(using: &generator) }
        let failing = Set(chosen.filter { _ in Int.random(in: 0..<5, using: &generator) == 0 })
        for reversed in [false, true] {
            let ticks = Ticks()
            let steps = await MoveCascade.run(chosen, graph: graph, reversed: reversed) { id in
                let began = ticks.tick()
                await Task.yield()
                return MoveStep(id: id, began: began, ended: ticks.tick(), succeeded: !failing.contains(id), endsReady: false, sentence: "")
            }
            #expect(Set(steps.map(\.id)).count == steps.count, "a step ran twice (seed \(seed))")
            let byID = Dictionary(steps.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            // The reference: every ancestor, by the manifest's own lists.
            func ancestors(of id: CommandID) -> Set<CommandID> {
                var seen = Set<CommandID>()
                var pending = manifest.commands.first { $0.id == id }!.dependencies
                while let next = pending.popLast() {
                    guard seen.insert(next).inserted else { continue }
                    pending += manifest.commands.first { $0.id == next }!.dependencies
                }
                return seen
            }
            for id in chosen {
                // What must come first: every chosen ancestor (through commands not chosen too), or for a stop every
                // chosen descendant.
                let first = chosen.filter { other in reversed ? ancestors(of: other).contains(id) : ancestors(of: id).contains(other) }
                if first.contains(where: failing.contains) {
                    #expect(byID[id] == nil, "\(id) ran although something before it failed (seed \(seed))")
                    continue
                }
                guard let step = byID[id] else {
                    Issue.record("\(id) did not run (seed \(seed))")
                    continue
                }
                for other in first { #expect(byID[other]!.ended < step.began, "\(id) began before \(other) ended (seed \(seed))") }
            }
        }
    }

    @Test func theCriticalPath_followsTheChainThatEndedLast() throws {
        let manifest = Manifest(commands: [
            ManifestCommand(id: "build", run: "true"),
            ManifestCommand(id: "assets", run: "true"),
            ManifestCommand(id: "api", dependencies: ["build", "assets"], run: "true"),
            ManifestCommand(id: "web", dependencies: ["api"], run: "true"),
        ])
        func step(_ id: CommandID, _ began: Int, _ ended: Int, ready: Bool = false) -> MoveStep {
            MoveStep(id: id, began: .milliseconds(began), ended: .milliseconds(ended), succeeded: true, endsReady: ready, sentence: "")
        }
        let steps = [step("build", 0, 2100), step("assets", 0, 300), step("api", 2100, 2410, ready: true), step("web", 2410, 2500)]
        let path = MoveCascade.criticalPath(steps, graph: CommandGraph(plan: try manifest.makePlan(ManifestLoading.graphOnly(manifest))))
        #expect(path.map(\.id) == ["build", "api", "web"])
        #expect(MoveCascade.describe(Array(path.prefix(2))) == "build 2.1s -> api 310ms ready")
    }

    @Test func withDependents_leavesOutWhatIsNotUp_andWhatDependsOnItThroughItAlone() throws {
        let manifest = Manifest(commands: [
            ManifestCommand(id: "db", run: "true"),
            ManifestCommand(id: "migrate", dependencies: ["db"], run: "true"),
            ManifestCommand(id: "api", dependencies: ["migrate"], run: "true"),
            ManifestCommand(id: "worker", dependencies: ["db"], run: "true"),
        ])
        let graph = CommandGraph(plan: try manifest.makePlan(ManifestLoading.graphOnly(manifest)))
        let all = graph.withDependents(of: ["db"]) { _ in true }
        #expect(Set(all) == ["db", "migrate", "api", "worker"] && all.count == 4)
        #expect(all.first == "db" && all.firstIndex(of: "migrate")! < all.firstIndex(of: "api")!, "in dependency order: \(all)")
        #expect(graph.withDependents(of: ["db"]) { $0 != "migrate" } == ["db", "worker"])
        #expect(graph.withDependencies(of: ["api"]) == ["db", "migrate", "api"])
    }
}
