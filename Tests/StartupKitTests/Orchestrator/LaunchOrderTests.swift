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

    @Test func whileARaisedCommandIsUnfinished_theOthersGiveWay_andOnceItHasEnded_noneDoes() throws {
        var specs = launch
        specs[6].priority = .high
        var (machine, plan) = try machine(specs, slots: 2)
        _ = machine.begin(at: .zero, cancelled: false)
        let config = job(machine.workerArrived(at: .zero).0)
        let warm = job(machine.workerArrived(at: .zero).0)
        #expect(plan.ids[config.position] == "config" && !config.givesWay, "raised by the screen: it does not give way")
        #expect(plan.ids[warm.position] == "warm-a" && warm.givesWay)
        let auth = job(machine.attemptEnded(config, outcome: .succeeded, at: .milliseconds(5)).0)
        #expect(plan.ids[auth.position] == "auth" && !auth.givesWay)
        let screen = job(machine.attemptEnded(auth, outcome: .succeeded, at: .milliseconds(10)).0)
        #expect(plan.ids[screen.position] == "screen" && !screen.givesWay)
        let afterScreen = job(machine.attemptEnded(screen, outcome: .succeeded, at: .milliseconds(15)).0)
        #expect(plan.ids[afterScreen.position] == "warm-b" && !afterScreen.givesWay, "nothing raised is left")
    }

    @Test func whileARaisedCommandIsUnfinished_servicesAndBlockingCommandsDoNotGiveWay() throws {
        var builder = StartupPlanBuilder()
        builder.add("screen", options: .init(priority: .high)) { _ in }
        builder.addService("database") { _, _ in }
        builder.addBlocking("keychain") { _ in }
        let plan = try builder.build()
        var machine = Machine(plan: plan, maxConcurrency: nil, failurePolicy: .continueIndependent, recordsEvents: false)
        let begun = machine.begin(at: .zero, cancelled: false)
        #expect(begun.startBlocking.map(\.position) == [2] && begun.startBlocking.allSatisfy { !$0.givesWay })
        let screen = job(machine.workerArrived(at: .zero).0)
        let database = job(machine.workerArrived(at: .zero).0)
        #expect(plan.ids[screen.position] == "screen")
        #expect(plan.ids[database.position] == "database" && !database.givesWay, "a service outlives the launch")
    }

    @Test func whileATaskWaits_theCommandsItDoesNotNeedGiveWay_untilTheWaitEnds() throws {
        var (machine, plan) = try machine(launch, slots: 2)
        _ = machine.begin(at: .zero, cancelled: false)
        let wait = machine.reserveWait()
        _ = machine.wait(wait, for: [5], waiter: 1, at: .zero)
        let config = job(machine.workerArrived(at: .zero).0)
        let warm = job(machine.workerArrived(at: .zero).0)
        #expect(plan.ids[config.position] == "config" && !config.givesWay, "the awaited auth's ancestor")
        #expect(plan.ids[warm.position] == "warm-a" && warm.givesWay)
        _ = machine.endWait(wait, as: .cancelled, at: .milliseconds(1))
        let next = job(machine.attemptEnded(warm, outcome: .succeeded, at: .milliseconds(100)).0)
        #expect(!next.givesWay, "no wait is left")
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
        let begun = machine.begin(at: .zero, cancelled: false)
        #expect(begun.startBlocking.map { plan.ids[$0.position] } == ["sdk0", "sdk1"], "a third blocking command waits for a thread")
        #expect(begun.spawnWorker, "a worker comes for the async command")
        let (step, _) = machine.workerArrived(at: .milliseconds(1))
        #expect(started(plan, step) == "load")
        let ended = machine.blockingAttemptEnded(begun.startBlocking[0], outcome: .succeeded, at: .milliseconds(40))
        #expect(ended.startBlocking.map { plan.ids[$0.position] } == ["sdk2"])
    }

    @Test func maxConcurrency_countsBlockingCommands() throws {
        let specs = (0..<3).map { Spec(id: CommandID("sdk\($0)"), blocking: true) } + [Spec(id: "load")]
        var (machine, plan) = try machine(specs, slots: 2, blockingThreads: 8)
        let begun = machine.begin(at: .zero, cancelled: false)
        #expect(begun.startBlocking.map { plan.ids[$0.position] } == ["sdk0", "sdk1"])
        #expect(!begun.spawnWorker, "no slot is free for a worker")
        let (step, _) = machine.workerArrived(at: .zero)
        #expect(step == .park)
    }

    @Test func withFewSlots_anAsyncCommandThatComesFirst_keepsItsSlotFromABlockingOne() throws {
        let specs = [Spec(id: "load", estimateMs: 50), Spec(id: "sdk", estimateMs: 10, blocking: true)]
        var (machine, plan) = try machine(specs, slots: 1)
        let begun = machine.begin(at: .zero, cancelled: false)
        #expect(begun.startBlocking.isEmpty)
        let (step, _) = machine.workerArrived(at: .zero)
        #expect(started(plan, step) == "load")
        let (next, ended) = machine.attemptEnded(job(step), outcome: .succeeded, at: .milliseconds(50))
        #expect(next == .park)
        #expect(ended.startBlocking.map { plan.ids[$0.position] } == ["sdk"], "the freed slot goes to the blocking command, no worker")
    }

    @Test func aBlockingCommandReleasedByAnother_startsAtItsEnd_withNoWorker() throws {
        let specs = [
            Spec(id: "database", blocking: true), Spec(id: "keychain", dependencies: ["database"], blocking: true),
            Spec(id: "screen", dependencies: ["keychain"]),
        ]
        var (machine, plan) = try machine(specs)
        let begun = machine.begin(at: .zero, cancelled: false)
        #expect(begun.kinds == ["start blocking"], "no worker is asked for")
        let ended = machine.blockingAttemptEnded(begun.startBlocking[0], outcome: .succeeded, at: .milliseconds(5))
        #expect(ended.kinds == ["start blocking"])
        #expect(ended.startBlocking.map { plan.ids[$0.position] } == ["keychain"])
        let last = machine.blockingAttemptEnded(ended.startBlocking[0], outcome: .succeeded, at: .milliseconds(9))
        #expect(last.spawnWorker, "the async dependent needs a worker")
        #expect(machine.records[1].start == 5_000_000, "started at the decision's time")
    }

    @Test func aBlockingRetry_startsOnThePool_orGoesToAWorkerForItsBackoff() throws {
        var builder = StartupPlanBuilder()
        builder.addBlocking("now", options: .init(retry: .retry(times: 1, initialDelay: .zero))) { _ in }
        builder.addBlocking("later", options: .init(retry: .retry(times: 1, initialDelay: .milliseconds(20)))) { _ in }
        let plan = try builder.build()
        var machine = Machine(plan: plan, maxConcurrency: nil, failurePolicy: .continueIndependent, recordsEvents: false)
        let begun = machine.begin(at: .zero, cancelled: false)
        #expect(begun.startBlocking.count == 2)
        struct Failure: Error {}
        for first in begun.startBlocking {
            let ended = machine.blockingAttemptEnded(first, outcome: .threw(Failure()), at: .milliseconds(1))
            if plan.ids[first.position] == "now" {
                #expect(ended.startBlocking.map(\.attempt) == [2], "no backoff: straight back to the pool")
            } else {
                #expect(ended.startBlocking.isEmpty)
                #expect(ended.spawnWorker, "a worker sleeps the backoff")
            }
        }
        let (step, _) = machine.workerArrived(at: .milliseconds(2))
        #expect(step == .run(Job(position: 1, attempt: 2, delay: .milliseconds(20))))
        #expect(machine.busy == 2)
    }

    @Test func aStop_endsABlockingRetryWaitingForItsBackoffsWorker_cancelled() throws {
        var builder = StartupPlanBuilder()
        builder.addBlocking("later", options: .init(retry: .retry(times: 1, initialDelay: .milliseconds(20)))) { _ in }
        let plan = try builder.build()
        var machine = Machine(plan: plan, maxConcurrency: nil, failurePolicy: .continueIndependent, recordsEvents: false)
        let begun = machine.begin(at: .zero, cancelled: false)
        struct Failure: Error {}
        _ = machine.blockingAttemptEnded(begun.startBlocking[0], outcome: .threw(Failure()), at: .milliseconds(1))
        let cancelled = machine.cancel(at: .milliseconds(2))
        #expect(cancelled.settled)
        #expect(machine.outcomes[0] == .cancelled)
        #expect(machine.busy == 0)
    }

    @Test func anAwaitedBlockingCommand_takesTheNextPoolThread() throws {
        let specs = [
            Spec(id: "sdk-long", estimateMs: 100, blocking: true), Spec(id: "sdk-other", estimateMs: 90, blocking: true),
            Spec(id: "database", estimateMs: 10, blocking: true), Spec(id: "screen", dependencies: ["database"]),
        ]
        var (machine, plan) = try machine(specs, blockingThreads: 1)
        let begun = machine.begin(at: .zero, cancelled: false)
        #expect(begun.startBlocking.map { plan.ids[$0.position] } == ["sdk-long"])
        _ = machine.wait(machine.reserveWait(), for: [3], waiter: 1, at: .milliseconds(1))
        let ended = machine.blockingAttemptEnded(begun.startBlocking[0], outcome: .succeeded, at: .milliseconds(100))
        #expect(ended.startBlocking.map { plan.ids[$0.position] } == ["database"])
    }
}
