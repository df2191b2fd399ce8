import Foundation
import StartupKit
import StartupSeededRandom

/// A realistic app launch for the bench: blocking SDK initialisers, async loads, CPU steps and a
/// main-actor first screen at the end of a chain, in an AppDelegate's declaration order (what the
/// SDKs need first, then the SDKs, the rest of the first screen's chain last). A step depends
/// only on steps declared before it.
struct LaunchGraph: Sendable {
    /// What one step's work is; every contender runs the same work.
    enum Work: Sendable {
        /// A synchronous call that blocks its thread (`usleep`), like an SDK's `configure()`.
        case blocking(milliseconds: Int)
        /// An async load (`Task.sleep`).
        case async(milliseconds: Int)
        /// CPU work (a busy loop on the clock).
        case cpu(milliseconds: Int)
        /// CPU work on the main actor: the first screen.
        case mainActor(milliseconds: Int)

        /// The intended duration.
        var milliseconds: Int {
            switch self {
            case .blocking(let ms), .async(let ms), .cpu(let ms), .mainActor(let ms): ms
            }
        }
    }

    /// One step: its id, what it depends on (positions) and its work.
    struct Step: Sendable {
        let id: CommandID
        let dependencies: [Int]
        let work: Work
    }

    /// The graph's name in figure names, such as `blocking-storm`.
    let name: String
    /// The steps in declaration order; the first screen is the last one.
    let steps: [Step]
    /// The slot limit of StartupKit's run, `nil` for none.
    let slots: Int?

    /// The first screen's position.
    var firstScreen: Int { steps.count - 1 }

    /// The first screen and its ancestors, in dependency order: its own chain.
    var firstScreenChain: [Int] {
        var needed = Set([firstScreen])
        for position in steps.indices.reversed() where needed.contains(position) {
            needed.formUnion(steps[position].dependencies)
        }
        return steps.indices.filter(needed.contains)
    }

    /// The intended length of the first screen's chain: its lower bound, in milliseconds.
    var chainMilliseconds: Int { firstScreenChain.map { steps[$0].work.milliseconds }.reduce(0, +) }

    /// The intended critical path of the whole graph, in milliseconds.
    var criticalPathMilliseconds: Int {
        var finish = [Int](repeating: 0, count: steps.count)
        for (position, step) in steps.enumerated() {
            finish[position] = (step.dependencies.map { finish[$0] }.max() ?? 0) + step.work.milliseconds
        }
        return finish.max() ?? 0
    }

    /// The intended work of every step, in milliseconds.
    var totalMilliseconds: Int { steps.map(\.work.milliseconds).reduce(0, +) }

    /// Runs a step's work on the calling thread or task, as a hand-written launch would.
    static func perform(_ work: Work) async {
        switch work {
        case .blocking(let ms): usleep(useconds_t(ms * 1_000))
        case .async(let ms): try? await Task.sleep(for: .milliseconds(ms))
        case .cpu(let ms): spin(milliseconds: ms)
        case .mainActor(let ms): await MainActor.run { spin(milliseconds: ms) }
        }
    }

    /// Keeps the processor busy for `milliseconds`.
    static func spin(milliseconds: Int) {
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: .milliseconds(milliseconds))
        var counter = 0
        while clock.now < end { counter &+= 1 }
    }

    /// The plan StartupKit runs: blocking steps added as blocking, the first screen on the main
    /// actor and marked `.high` (as the documentation says), every step estimated at its length.
    ///
    /// - Parameter isMarked: `false` for a plan that declares neither estimates nor a `.high`
    ///   first screen, whose order only a launch profile can learn.
    func plan(isMarked: Bool = true) -> StartupPlan {
        var builder = StartupPlanBuilder()
        for (position, step) in steps.enumerated() {
            let dependencies = step.dependencies.map { steps[$0].id }
            let options =
                isMarked
                ? CommandOptions(priority: position == firstScreen ? .high : .normal, estimate: .milliseconds(step.work.milliseconds))
                : CommandOptions()
            switch step.work {
            case .blocking(let ms):
                builder.addBlocking(step.id, dependsOn: dependencies, options: options) { _ in usleep(useconds_t(ms * 1_000)) }
            case .mainActor(let ms):
                builder.addOnMainActor(step.id, dependsOn: dependencies, options: options) { _ in Self.spin(milliseconds: ms) }
            case .async, .cpu:
                let work = step.work
                builder.add(step.id, dependsOn: dependencies, options: options) { _ in await Self.perform(work) }
            }
        }
        guard let plan = try? builder.build() else { preconditionFailure("a launch graph is valid") }
        return plan
    }
}

extension LaunchGraph {
    /// The configuration (async 5 ms), 12 blocking SDK initialisers (25-40 ms, some depending on
    /// the configuration), 6 async loads (10-30 ms), 4 CPU steps (2-5 ms), and the rest of the first
    /// screen's chain: configuration -> database (blocking 30 ms) -> auth (async 15 ms) -> first
    /// screen (main actor, 15 ms). No slot limit.
    static func blockingStorm() -> LaunchGraph {
        var random = SeededGenerator(seed: 35)
        var steps = [Step(id: "config", dependencies: [], work: .async(milliseconds: 5))]
        for index in 0..<12 {
            steps.append(
                Step(
                    id: CommandID("sdk-\(index)"), dependencies: index % 3 == 0 ? [] : [0],
                    work: .blocking(milliseconds: Int.random(in: 25...40, using: &random))))
        }
        for index in 0..<6 {
            steps.append(
                Step(id: CommandID("load-\(index)"), dependencies: [], work: .async(milliseconds: Int.random(in: 10...30, using: &random))))
        }
        for index in 0..<4 {
            steps.append(
                Step(id: CommandID("cpu-\(index)"), dependencies: [], work: .cpu(milliseconds: Int.random(in: 2...5, using: &random))))
        }
        steps.append(Step(id: "database", dependencies: [0], work: .blocking(milliseconds: 30)))
        steps.append(Step(id: "auth", dependencies: [steps.count - 1], work: .async(milliseconds: 15)))
        steps.append(Step(id: "first-screen", dependencies: [steps.count - 1], work: .mainActor(milliseconds: 15)))
        return LaunchGraph(name: "blocking-storm", steps: steps, slots: nil)
    }

    /// `maxConcurrency` 4: 60 warm-up commands in 15 chains of 4 (15-25 ms each, remaining paths
    /// longer than the first screen's) and the first screen's chain of four 10 ms steps.
    static func slotsFour() -> LaunchGraph {
        var random = SeededGenerator(seed: 36)
        var steps: [Step] = []
        for chain in 0..<15 {
            for link in 0..<4 {
                let dependencies = link == 0 ? [] : [steps.count - 1]
                steps.append(
                    Step(
                        id: CommandID("warm-\(chain)-\(link)"), dependencies: dependencies,
                        work: .async(milliseconds: Int.random(in: 15...25, using: &random))))
            }
        }
        let chain = steps.count
        steps.append(Step(id: "config", dependencies: [], work: .async(milliseconds: 10)))
        steps.append(Step(id: "session", dependencies: [chain], work: .async(milliseconds: 10)))
        steps.append(Step(id: "feed", dependencies: [chain + 1], work: .async(milliseconds: 10)))
        steps.append(Step(id: "first-screen", dependencies: [chain + 2], work: .mainActor(milliseconds: 10)))
        return LaunchGraph(name: "slots-4", steps: steps, slots: 4)
    }

    /// `maxConcurrency` 2, for a plan that declares nothing (``plan(isMarked:)``): 8 chains of three
    /// 10 ms async loads declared first (the longest chains by count), then a 180 ms and a 60 ms
    /// load declared last. Unlearned, the chains go first and the 180 ms load ends alone; learned,
    /// it starts first.
    static func learnedOrder() -> LaunchGraph {
        var steps: [Step] = []
        for chain in 0..<8 {
            for link in 0..<3 {
                steps.append(
                    Step(
                        id: CommandID("chain-\(chain)-\(link)"), dependencies: link == 0 ? [] : [steps.count - 1],
                        work: .async(milliseconds: 10)))
            }
        }
        steps.append(Step(id: "index", dependencies: [], work: .async(milliseconds: 60)))
        steps.append(Step(id: "catalog", dependencies: [], work: .async(milliseconds: 180)))
        return LaunchGraph(name: "learned-order", steps: steps, slots: 2)
    }

    /// 8 blocking initialisers of 50 ms beside an async chain of five 8 ms loads ending in a
    /// main-actor first screen (5 ms): no slot limit.
    static func blockingBesideAsync() -> LaunchGraph {
        var steps: [Step] = (0..<8).map { Step(id: CommandID("sdk-\($0)"), dependencies: [], work: .blocking(milliseconds: 50)) }
        for link in 0..<5 {
            let dependencies = link == 0 ? [] : [steps.count - 1]
            steps.append(Step(id: CommandID("load-\(link)"), dependencies: dependencies, work: .async(milliseconds: 8)))
        }
        steps.append(Step(id: "first-screen", dependencies: [steps.count - 1], work: .mainActor(milliseconds: 5)))
        return LaunchGraph(name: "blocking-beside-async", steps: steps, slots: nil)
    }
}
