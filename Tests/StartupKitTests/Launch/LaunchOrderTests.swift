import Testing

@testable import StartupKit

/// The order the scheduler gives free slots and pool threads, input by input with made-up times:
/// effective priorities, waits that make commands urgent, and blocking commands held to the pool.
@Suite struct LaunchOrderTests {
    typealias Machine = SchedulerStateMachine<Int, Int, Int, Int>

    /// One command of a test plan; `blocking` ones are counted against the pool's threads.
    struct Spec {
        let id: CommandID
        var dependencies: [CommandID] = []
        var estimateMs = 1
        var priority = CommandPriority.normal
        var blocking = false
    }

    private func machine(_ specs: [Spec], slots: Int? = nil, blockingThreads: Int = 16) throws -> (Machine, StartupPlan) {
        var builder = StartupPlanBuilder()
        for spec in specs {
            let options = CommandOptions(priority: spec.priority, estimate: .milliseconds(spec.estimateMs))
            if spec.blocking {
                builder.addBlocking(spec.id, dependsOn: spec.dependencies, options: options) { _ in }
            } else {
                builder.add(spec.id, dependsOn: spec.dependencies, options: options) { _ in }
            }
        }
        let plan = try builder.build()
        let machine = Machine(
            plan: plan, maxConcurrency: slots, failurePolicy: .continueIndependent, recordsEvents: false,
            blockingThreads: blockingThreads)
        return (machine, plan)
    }

    private func started(_ plan: StartupPlan, _ step: WorkerStep?) -> CommandID? {
        guard case .run(let job)? = step else { return nil }
        return plan.ids[job.position]
    }

    private func job(_ step: WorkerStep) -> Job {
        guard case .run(let job) = step else { preconditionFailure("expected a job, got \(step)") }
        return job
    }

    /// Warm-up work with long remaining paths (two chains of 100 ms + 100 ms) beside a short
    /// first-screen chain `config -> auth -> screen`.
    private var launch: [Spec] {
        [
            Spec(id: "warm-a", estimateMs: 100), Spec(id: "warm-a2", dependencies: ["warm-a"], estimateMs: 100),
            Spec(id: "warm-b", estimateMs: 100), Spec(id: "warm-b2", dependencies: ["warm-b"], estimateMs: 100),
            Spec(id: "config", estimateMs: 5), Spec(id: "auth", dependencies: ["config"], estimateMs: 5),
            Spec(id: "screen", dependencies: ["auth"], estimateMs: 5),
        ]
    }

    @Test func aHighCommandsAncestors_takeTheSlotsBeforeLongerRemainingPaths() throws {
        var specs = launch
        specs[6].priority = .high
        var (machine, plan) = try machine(specs, slots: 1)
        _ = machine.begin(at: .zero, cancelled: false)
        let (first, _) = machine.workerArrived(at: .milliseconds(1))
        #expect(started(plan, first) == "config", "config inherits the screen's .high")
        let (second, _) = machine.attemptEnded(job(first), outcome: .succeeded, at: .milliseconds(6))
        #expect(started(plan, second) == "auth")
        let (third, _) = machine.attemptEnded(job(second), outcome: .succeeded, at: .milliseconds(11))
        #expect(started(plan, third) == "screen")
        let (fourth, _) = machine.attemptEnded(job(third), outcome: .succeeded, at: .milliseconds(16))
        #expect(started(plan, fourth) == "warm-a")
    }

    @Test func withoutPriorityOrWait_theLongerRemainingPathGoesFirst() throws {
        var (machine, plan) = try machine(launch, slots: 1)
        _ = machine.begin(at: .zero, cancelled: false)
        let (first, _) = machine.workerArrived(at: .milliseconds(1))
        #expect(started(plan, first) == "warm-a")
    }

    @Test func anAwaitedCommandsUnfinishedAncestors_goFirst_andFallBackWhenTheWaitIsCancelled() throws {
        var (machine, plan) = try machine(launch, slots: 1)
        _ = machine.begin(at: .zero, cancelled: false)
        let wait = machine.reserveWait()
        let (outcome, _) = machine.wait(wait, for: [6], waiter: 100, at: .milliseconds(1))
        #expect(outcome == nil)
        let (first, _) = machine.workerArrived(at: .milliseconds(1))
        #expect(started(plan, first) == "config", "the awaited screen's ancestor goes ahead of longer paths")
        let (second, _) = machine.attemptEnded(job(first), outcome: .succeeded, at: .milliseconds(6))
        #expect(started(plan, second) == "auth")

        // The wait is cancelled while auth runs: the screen, ready next, has no urgency left.
        let cancelled = machine.endWait(wait, as: .cancelled, at: .milliseconds(7))
        #expect(cancelled.resolve.map(\.0) == [100])
        let (third, _) = machine.attemptEnded(job(second), outcome: .succeeded, at: .milliseconds(11))
        #expect(started(plan, third) == "warm-a", "back to critical-path-first")
    }

    @Test func urgentCommands_goInCriticalPathOrderAmongThemselves_aheadOfHigherPriorities() throws {
        let specs = [
            Spec(id: "important", priority: .high), Spec(id: "short", estimateMs: 1), Spec(id: "long", estimateMs: 50),
            Spec(id: "screen", dependencies: ["short", "long"]),
        ]
        var (machine, plan) = try machine(specs, slots: 1)
        _ = machine.begin(at: .zero, cancelled: false)
        _ = machine.wait(machine.reserveWait(), for: [3], waiter: 1, at: .zero)
        let (first, _) = machine.workerArrived(at: .zero)
        #expect(started(plan, first) == "long")
        let (second, _) = machine.attemptEnded(job(first), outcome: .succeeded, at: .milliseconds(50))
        #expect(started(plan, second) == "short")
        let (third, _) = machine.attemptEnded(job(second), outcome: .succeeded, at: .milliseconds(51))
        #expect(started(plan, third) == "screen")
        let (fourth, actions) = machine.attemptEnded(job(third), outcome: .succeeded, at: .milliseconds(52))
        #expect(actions.resolve.map(\.0) == [1])
        #expect(started(plan, fourth) == "important")
    }

    @Test func blockingCommands_neverExceedThePoolsThreads_whileAsyncOnesTakeTheOtherSlots() throws {
        let specs = (0..<4).map { Spec(id: CommandID("sdk\($0)"), estimateMs: 40, blocking: true) } + [Spec(id: "load")]
        var (machine, plan) = try machine(specs, blockingThreads: 2)
        _ = machine.begin(at: .zero, cancelled: false)
        var jobs: [Job] = []
        for arrival in 1...4 {
            let (step, _) = machine.workerArrived(at: .milliseconds(arrival))
            if case .run(let job) = step { jobs.append(job) }
        }
        #expect(jobs.map { plan.ids[$0.position] } == ["sdk0", "sdk1", "load"], "a third blocking command waits for a thread")
        let (next, _) = machine.attemptEnded(jobs[0], outcome: .succeeded, at: .milliseconds(40))
        #expect(started(plan, next) == "sdk2")
    }

    @Test func maxConcurrency_countsBlockingCommands() throws {
        let specs = (0..<3).map { Spec(id: CommandID("sdk\($0)"), blocking: true) } + [Spec(id: "load")]
        var (machine, plan) = try machine(specs, slots: 2, blockingThreads: 8)
        _ = machine.begin(at: .zero, cancelled: false)
        let (first, _) = machine.workerArrived(at: .zero)
        let (second, _) = machine.workerArrived(at: .zero)
        let (third, _) = machine.workerArrived(at: .zero)
        #expect([started(plan, first), started(plan, second)] == ["sdk0", "sdk1"])
        #expect(third == .park)
    }

    @Test func anAwaitedBlockingCommand_takesTheNextPoolThread() throws {
        let specs = [
            Spec(id: "sdk-long", estimateMs: 100, blocking: true), Spec(id: "sdk-other", estimateMs: 90, blocking: true),
            Spec(id: "database", estimateMs: 10, blocking: true), Spec(id: "screen", dependencies: ["database"]),
        ]
        var (machine, plan) = try machine(specs, blockingThreads: 1)
        _ = machine.begin(at: .zero, cancelled: false)
        let (first, _) = machine.workerArrived(at: .zero)
        #expect(started(plan, first) == "sdk-long")
        _ = machine.wait(machine.reserveWait(), for: [3], waiter: 1, at: .milliseconds(1))
        let (next, _) = machine.attemptEnded(job(first), outcome: .succeeded, at: .milliseconds(100))
        #expect(started(plan, next) == "database")
    }
}
