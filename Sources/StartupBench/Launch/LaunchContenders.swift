import Foundation
import StartupKit

/// When a launch's first screen was up and when the whole launch ended, from its start.
struct LaunchTimes: Sendable {
    /// The first screen's work has ended.
    var firstScreen: Duration
    /// Every step has ended.
    var end: Duration
}

/// The ways the bench launches a ``LaunchGraph``: StartupKit, and the peers an app would write
/// instead. Each runs the same work and times itself from its own start.
@MainActor
enum LaunchContenders {
    /// StartupKit: `start()`, then `wait(for:)` the first screen; the end is `report()`. The main
    /// actor stays free while the run is in flight (the first screen runs on it).
    static func startupKit(_ graph: LaunchGraph, plan: StartupPlan) async -> LaunchTimes {
        let clock = ContinuousClock()
        let start = clock.now
        let run = StartupOrchestrator(plan, options: .init(maxConcurrency: graph.slots)).start()
        do {
            try await run.wait(for: [graph.steps[graph.firstScreen].id])
        } catch {
            preconditionFailure("the launch's first screen failed: \(error)")
        }
        let firstScreen = start.duration(to: clock.now)
        _ = await run.report()
        return LaunchTimes(firstScreen: firstScreen, end: start.duration(to: clock.now))
    }

    /// The seeds' flat AppDelegate: `commands.forEach { $0.execute() }` in declaration order.
    static func flat(_ graph: LaunchGraph) async -> LaunchTimes {
        await oneAfterAnother(graph, order: Array(graph.steps.indices))
    }

    /// The same list hand-ordered: the first screen's chain first, then the rest in declaration
    /// order, one after another.
    static func handOrdered(_ graph: LaunchGraph) async -> LaunchTimes {
        let chain = graph.firstScreenChain
        let rest = graph.steps.indices.filter { !chain.contains($0) }
        return await oneAfterAnother(graph, order: chain + rest)
    }

    /// The lower bound: the first screen's own chain alone, one after another.
    static func chainAlone(_ graph: LaunchGraph) async -> Duration {
        await oneAfterAnother(graph, order: graph.firstScreenChain).firstScreen
    }

    /// A naive `TaskGroup`: a child task per step once its dependencies have ended, the blocking
    /// calls made inside the child task (on the cooperative pool). Under the graph's slot limit,
    /// steps wait for a slot first come, first served.
    static func naiveTaskGroup(_ graph: LaunchGraph) async -> LaunchTimes {
        let clock = ContinuousClock()
        let start = clock.now
        let slots = graph.slots ?? graph.steps.count
        var pending = graph.steps.map(\.dependencies.count)
        var dependents = [[Int]](repeating: [], count: graph.steps.count)
        for (position, step) in graph.steps.enumerated() {
            for dependency in step.dependencies { dependents[dependency].append(position) }
        }
        var queue = graph.steps.indices.filter { graph.steps[$0].dependencies.isEmpty }
        var head = 0
        var running = 0
        var firstScreen = Duration.zero
        await withTaskGroup(of: Int.self) { group in
            while true {
                while running < slots, head < queue.count {
                    let position = queue[head]
                    let work = graph.steps[position].work
                    head += 1
                    running += 1
                    group.addTask {
                        await LaunchGraph.perform(work)
                        return position
                    }
                }
                guard let finished = await group.next() else { break }
                running -= 1
                if finished == graph.firstScreen { firstScreen = start.duration(to: clock.now) }
                for dependent in dependents[finished] {
                    pending[dependent] -= 1
                    if pending[dependent] == 0 { queue.append(dependent) }
                }
            }
        }
        return LaunchTimes(firstScreen: firstScreen, end: start.duration(to: clock.now))
    }

    /// Hand-tuned concurrent code: a `Task.detached` per step, created chain first and at `.high`
    /// (the rest at `.medium`), each awaiting its dependencies' tasks first; a blocking call made
    /// on a thread of its own, off the cooperative pool; the first screen on the main actor. No
    /// slot limit: what an expert writes for one launch by hand.
    static func handTuned(_ graph: LaunchGraph) async -> LaunchTimes {
        let clock = ContinuousClock()
        let start = clock.now
        let chain = graph.firstScreenChain
        let order = chain + graph.steps.indices.filter { !chain.contains($0) }
        // Each task returns when its step ended, from the start.
        var tasks = [Task<Duration, Never>?](repeating: nil, count: graph.steps.count)
        for position in order {
            let step = graph.steps[position]
            let dependencies = step.dependencies.map { tasks[$0]! }
            tasks[position] = Task.detached(priority: chain.contains(position) ? .high : .medium) {
                for dependency in dependencies { _ = await dependency.value }
                if case .blocking(let ms) = step.work {
                    await withCheckedContinuation { continuation in
                        Thread.detachNewThread {
                            usleep(useconds_t(ms * 1_000))
                            continuation.resume()
                        }
                    }
                } else {
                    await LaunchGraph.perform(step.work)
                }
                return start.duration(to: clock.now)
            }
        }
        let firstScreen = await tasks[graph.firstScreen]!.value
        for task in tasks { _ = await task!.value }
        return LaunchTimes(firstScreen: firstScreen, end: start.duration(to: clock.now))
    }

    /// Runs the steps at `order` one after another on the main actor, blocking calls included.
    private static func oneAfterAnother(_ graph: LaunchGraph, order: [Int]) async -> LaunchTimes {
        let clock = ContinuousClock()
        let start = clock.now
        var firstScreen = Duration.zero
        for position in order {
            await LaunchGraph.perform(graph.steps[position].work)
            if position == graph.firstScreen { firstScreen = start.duration(to: clock.now) }
        }
        return LaunchTimes(firstScreen: firstScreen, end: start.duration(to: clock.now))
    }
}
