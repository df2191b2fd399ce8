import StartupSeededRandom
import StartupTestSupport
import Testing

@testable import StartupKit

/// Drives the scheduler's state machine through many seeded random launches (random graphs,
/// priorities, blocking commands, slots, waits that come and go, attempts that end in random
/// order) and checks every command it hands out against a simple reference of the order: urgent
/// commands (the unfinished ancestors of what a task waits for) first by remaining path, then by
/// key; a blocking command only while the pool has a thread, and ahead of a better async command
/// only while the ready async commands could not take every free slot; never more than the slots.
@Suite struct LaunchOrderPropertyTests {
    typealias Machine = SchedulerStateMachine<Int, Int, Int, Int>

    /// The reference: what the driver knows of the run, kept apart from the machine.
    private struct Reference {
        let graph: RandomGraph
        let keys: [ReadyKey]
        let blocking: [Bool]
        let slots: Int
        let blockingThreads: Int
        var started: [Bool]
        var finished: [Bool]
        var running = 0
        var blockingRunning = 0
        /// The commands each pending wait awaits, by wait id.
        var waits: [Int: Int] = [:]

        /// Whether `position` is an ancestor-or-self of an awaited unfinished command.
        func isUrgent(_ position: Int) -> Bool {
            var stack = Array(waits.values)
            var seen = Set<Int>()
            while let next = stack.popLast() {
                guard !finished[next], seen.insert(next).inserted else { continue }
                if next == position { return true }
                stack += graph.dependencies[next]
            }
            return false
        }

        /// The command the reference order starts next, if any may start.
        func best() -> Int? {
            guard running < slots else { return nil }
            let candidates = graph.dependencies.indices.filter { position in
                !started[position] && graph.dependencies[position].allSatisfy { finished[$0] }
                    && (!blocking[position] || blockingRunning < blockingThreads)
            }
            // Urgent first, by remaining path; then effective priority, remaining path, declaration.
            return candidates.min { lhs, rhs in
                let (left, right) = (keys[lhs], keys[rhs])
                let order: ((Bool, Int, Int64, Int), (Bool, Int, Int64, Int)) = (
                    (!isUrgent(lhs), isUrgent(lhs) ? 0 : -left.priority, -left.remainingPath, lhs),
                    (!isUrgent(rhs), isUrgent(rhs) ? 0 : -right.priority, -right.remainingPath, rhs)
                )
                return (order.0.0 ? 1 : 0, order.0.1, order.0.2, order.0.3) < (order.1.0 ? 1 : 0, order.1.1, order.1.2, order.1.3)
            }
        }

        /// Whether the blocking command at `position` may start ahead of the best: the ready async
        /// commands could not fill the free slots, so it deprives none of them.
        func mayStartAhead(_ position: Int) -> Bool {
            guard blocking[position], running < slots, blockingRunning < blockingThreads, !started[position],
                graph.dependencies[position].allSatisfy({ finished[$0] })
            else { return false }
            let readyAsync = graph.dependencies.indices.filter { candidate in
                !blocking[candidate] && !started[candidate] && graph.dependencies[candidate].allSatisfy { finished[$0] }
            }
            return slots - running > readyAsync.count
        }

        mutating func start(_ position: Int) {
            #expect(!started[position], "c\(position) started twice in \(graph)")
            #expect(graph.dependencies[position].allSatisfy { finished[$0] }, "c\(position) started before its dependencies in \(graph)")
            started[position] = true
            running += 1
            if blocking[position] { blockingRunning += 1 }
            #expect(running <= slots && blockingRunning <= blockingThreads, "over the limits in \(graph)")
        }

        mutating func finish(_ position: Int) {
            finished[position] = true
            running -= 1
            if blocking[position] { blockingRunning -= 1 }
        }
    }

    @Test(arguments: RandomGraph.all(seeds: 30))
    func everyCommandHandedOut_isTheReferencesBest(graph: RandomGraph) throws {
        var random = SeededGenerator(seed: graph.seed &* 7919 &+ UInt64(graph.count))
        let blocking = (0..<graph.count).map { _ in Bool.random(using: &random) }
        var builder = StartupPlanBuilder()
        for index in 0..<graph.count {
            let options = CommandOptions(
                priority: CommandPriority(graph.priorities[index]), estimate: .milliseconds(graph.durations[index]))
            let id = RandomGraph.id(index)
            let dependencies = graph.dependencies[index].map(RandomGraph.id)
            if blocking[index] {
                builder.addBlocking(id, dependsOn: dependencies, options: options) { _ in }
            } else {
                builder.add(id, dependsOn: dependencies, options: options) { _ in }
            }
        }
        let plan = try builder.build()
        let slots = Int.random(in: 1...4, using: &random)
        let blockingThreads = Int.random(in: 1...3, using: &random)
        var machine = Machine(
            plan: plan, maxConcurrency: slots, failurePolicy: .continueIndependent, recordsEvents: false, blockingThreads: blockingThreads)
        var reference = Reference(
            graph: graph, keys: plan.storage.readyKeys, blocking: blocking, slots: slots, blockingThreads: blockingThreads,
            started: Array(repeating: false, count: graph.count), finished: Array(repeating: false, count: graph.count))

        /// Attempts in flight, and whether each was started on the pool with no worker.
        var inFlight: [(job: Job, direct: Bool)] = []
        var arriving = 0
        var nextWorker = 0
        var settled = false
        var time = Duration.zero

        // The commands one input starts (a worker's step, parked workers resumed, blocking ones
        // started on the pool) are decided together: each, in some order, must be the reference's
        // best when it starts, or a blocking one that may start ahead of it.
        func take(_ step: WorkerStep?, _ actions: SchedulerActions<Int, Int, Int, Int>) {
            var batch: [(job: Job, direct: Bool)] = actions.startBlocking.map { ($0, true) }
            for case .run(let job) in [step].compactMap({ $0 }) + actions.resume.map(\.1) { batch.append((job, false)) }
            while !batch.isEmpty {
                let best = reference.best()
                guard
                    let next = batch.firstIndex(where: { $0.job.position == best })
                        ?? batch.firstIndex(where: { reference.mayStartAhead($0.job.position) })
                else {
                    Issue.record(
                        "started \(batch.map { "c\($0.job.position)" }), the reference's best is \(best.map { "c\($0)" } ?? "none") in \(graph)"
                    )
                    return
                }
                let started = batch.remove(at: next)
                #expect(
                    started.direct == reference.blocking[started.job.position], "c\(started.job.position) went the wrong way in \(graph)")
                reference.start(started.job.position)
                inFlight.append(started)
            }
        }
        func perform(_ actions: SchedulerActions<Int, Int, Int, Int>, step: WorkerStep? = nil) {
            take(step, actions)
            for (waiter, _) in actions.resolve { reference.waits[waiter] = nil }
            if actions.spawnWorker { arriving += 1 }
            if actions.settled { settled = true }
            // A parked worker handed a job comes, as the scheduler's shell has it do.
            for case (_, .run) in actions.resume { perform(machine.wokenWorkerArrived(at: time)) }
        }

        perform(machine.begin(at: time, cancelled: false))
        var rounds = 0
        while !settled {
            rounds += 1
            #expect(rounds < 10_000, "no progress in \(graph)")
            guard rounds < 10_000 else { return }
            time += .milliseconds(1)
            switch Int.random(in: 0..<10, using: &random) {
            case 0...1 where reference.waits.count < 3:
                // A task waits for a random unfinished command.
                let candidates = (0..<graph.count).filter { !reference.finished[$0] }
                guard let awaited = candidates.randomElement(using: &random) else { continue }
                let id = machine.reserveWait()
                let (outcome, actions) = machine.wait(id, for: [awaited], waiter: id, at: time)
                if outcome == nil { reference.waits[id] = awaited }
                perform(actions)
            case 2 where !reference.waits.isEmpty:
                // A wait is cancelled.
                let id = reference.waits.keys.sorted()[0]
                reference.waits[id] = nil
                perform(machine.endWait(id, as: .cancelled, at: time))
            case 3...5 where arriving > 0:
                arriving -= 1
                nextWorker += 1
                let (step, actions) = machine.workerArrived(at: time)
                perform(actions, step: step)
                if step == .park { perform(machine.park(nextWorker, at: time).actions) }
            default:
                guard !inFlight.isEmpty else {
                    if arriving == 0 { Issue.record("stuck: nothing runs, no worker comes, in \(graph)") }
                    if arriving == 0 { return }
                    continue
                }
                let (job, direct) = inFlight.remove(at: Int.random(in: 0..<inFlight.count, using: &random))
                reference.finish(job.position)
                guard !direct else {
                    perform(machine.blockingAttemptEnded(job, outcome: .succeeded, at: time))
                    continue
                }
                let (step, actions) = machine.attemptEnded(job, outcome: .succeeded, at: time)
                perform(actions, step: step)
                if step == .park {
                    nextWorker += 1
                    perform(machine.park(nextWorker, at: time).actions)
                }
            }
        }
        #expect(reference.finished.allSatisfy { $0 }, "every command ran once in \(graph)")
    }
}
