import Testing

@testable import StartupKit

/// The scheduler's decisions alone, input by input, with made-up times: no tasks, no clock, no
/// continuations (workers and the listener are numbers).
@Suite struct SchedulerStateMachineTests {
    typealias Machine = SchedulerStateMachine<Int, Int, Int, Int>
    typealias Actions = SchedulerActions<Int, Int, Int, Int>

    struct Boom: Error {}

    /// A plan from `(id, dependencies, options)`; the commands' bodies never run here.
    private func plan(_ commands: [(String, [String], CommandOptions)]) throws -> StartupPlan {
        var builder = StartupPlanBuilder()
        for (id, dependencies, options) in commands {
            builder.add(CommandID(id), dependsOn: dependencies.map { CommandID($0) }, options: options) { _ in }
        }
        return try builder.build()
    }

    private func machine(
        _ commands: [(String, [String], CommandOptions)], slots: Int? = nil,
        policy: FailurePolicy = .continueIndependent, events: Bool = false, eventWindow: Duration = .zero
    ) throws -> (Machine, StartupPlan) {
        let plan = try plan(commands)
        return (
            Machine(
                plan: plan, maxConcurrency: slots, failurePolicy: policy, recordsEvents: events, eventBatchWindow: eventWindow),
            plan
        )
    }

    private func ms(_ value: Int) -> Duration { .milliseconds(value) }

    private func job(_ plan: StartupPlan, _ step: WorkerStep?) -> String? {
        guard case .run(let job)? = step else { return nil }
        return "\(plan.ids[job.position])#\(job.attempt)"
    }

    private func statuses(_ machine: Machine, _ plan: StartupPlan) -> [String: String] {
        var result: [String: String] = [:]
        for (position, id) in plan.ids.enumerated() {
            let record = machine.records[position]
            result[id.rawValue] =
                switch record.progress {
                case .waiting: "waiting"
                case .ready: "ready"
                case .gateClosed: "gate closed"
                case .running: "running"
                case .done: machine.outcomes[position]?.name ?? "succeeded"
                }
        }
        return result
    }

    private func runJob(_ step: WorkerStep) -> Job {
        guard case .run(let job) = step else { preconditionFailure("expected a job, got \(step)") }
        return job
    }

    // MARK: - Beginning

    @Test func begin_asksForOneWorker_andTheWorkerTakesTheBestReadyCommand() throws {
        var (machine, plan) = try machine([
            ("low", [], CommandOptions(priority: .low)),
            ("short", [], CommandOptions()),
            ("long-chain-head", [], CommandOptions()),
            ("tail", ["long-chain-head"], CommandOptions()),
        ])
        let begun = machine.begin(at: ms(0), cancelled: false)
        #expect(begun.spawnWorker && !begun.settled && begun.resume.isEmpty)
        #expect(machine.phase == .running(wakePending: true))

        // Priority first (normal above low), then the longer remaining path, then declaration.
        let (first, firstActions) = machine.workerArrived(at: ms(1))
        #expect(job(plan, first) == "long-chain-head#1")
        #expect(firstActions.spawnWorker, "ready commands remain, so one more worker is asked for")
        let (second, _) = machine.workerArrived(at: ms(2))
        #expect(job(plan, second) == "short#1")
        let (third, _) = machine.workerArrived(at: ms(3))
        #expect(job(plan, third) == "low#1")
        #expect(machine.records.map(\.start) == [3_000_000, 2_000_000, 1_000_000, -1])
    }

    @Test func begin_ofAnEmptyPlan_endsTheRunAtOnce() throws {
        var (machine, _) = try machine([])
        let actions = machine.begin(at: ms(5), cancelled: false)
        #expect(actions.settled && !actions.spawnWorker)
        #expect(machine.phase == .ended(nil, at: 5_000_000))
    }

    @Test func begin_whenAlreadyCancelled_cancelsEverythingAndEnds() throws {
        var (machine, plan) = try machine([("a", [], .init()), ("b", ["a"], .init())])
        let actions = machine.begin(at: ms(0), cancelled: true)
        #expect(actions.settled && !actions.spawnWorker)
        #expect(statuses(machine, plan) == ["a": "cancelled", "b": "cancelled"])
        #expect(machine.phase == .ended(.cancelled, at: 0))
    }

    // MARK: - Ending attempts

    @Test func attemptEnded_recordsTheGivenTimes_releasesDependents_andHandsTheWorkerTheNext() throws {
        var (machine, plan) = try machine([("a", [], .init()), ("b", ["a"], .init()), ("c", ["b"], .init())])
        _ = machine.begin(at: ms(0), cancelled: false)
        let (first, arrival) = machine.workerArrived(at: ms(1))
        #expect(!arrival.spawnWorker, "nothing else is ready")
        let (next, actions) = machine.attemptEnded(runJob(first), outcome: .succeeded, at: ms(40))
        #expect(job(plan, next) == "b#1")
        #expect(!actions.spawnWorker && !actions.settled)
        let (third, _) = machine.attemptEnded(runJob(next), outcome: .succeeded, at: ms(90))
        let (last, ended) = machine.attemptEnded(runJob(third), outcome: .succeeded, at: ms(95))
        #expect(last == .exit && ended.settled)
        #expect(machine.records.map(\.start) == [1_000_000, 40_000_000, 90_000_000])
        #expect(machine.records.map(\.end) == [40_000_000, 90_000_000, 95_000_000])
        #expect(machine.phase == .ended(nil, at: 95_000_000))
        let report = RunResult(machine).report(plan: plan)
        #expect(report.status == .succeeded)
        #expect(report.wallTime == ms(95))
        #expect(report.criticalPath == ["a", "b", "c"])
        #expect(report["b"]?.duration == ms(50))
    }

    @Test func park_storesTheWorker_andAFinishHandsItTheReleasedCommand() throws {
        var (machine, plan) = try machine([("a", [], .init()), ("b", ["a"], .init()), ("c", ["a"], .init())])
        _ = machine.begin(at: ms(0), cancelled: false)
        let (first, _) = machine.workerArrived(at: ms(0))
        // A second worker finds nothing ready and parks.
        let (parkedStep, parkActions) = machine.park(7, at: ms(1))
        #expect(parkedStep == nil && parkActions.resume.isEmpty)
        // "a" ends: its worker takes "b"; the parked worker 7 is handed "c".
        let (next, actions) = machine.attemptEnded(runJob(first), outcome: .succeeded, at: ms(10))
        #expect(job(plan, next) == "b#1")
        #expect(actions.resume.count == 1)
        #expect(actions.resume.first?.0 == 7)
        #expect(job(plan, actions.resume.first?.1) == "c#1")
        #expect(machine.phase == .running(wakePending: true))
        #expect(machine.wokenWorkerArrived(at: ms(11)).resume.isEmpty)
        #expect(machine.phase == .running(wakePending: false))
    }

    @Test func park_whenSomethingIsReady_takesItInsteadOfParking() throws {
        var (machine, plan) = try machine([("a", [], .init()), ("b", [], .init())])
        _ = machine.begin(at: ms(0), cancelled: false)
        let (step, _) = machine.park(3, at: ms(2))
        #expect(job(plan, step) == "a#1")
    }

    @Test func slots_areNeverExceeded_andAFreedSlotGoesToTheNextReadyCommand() throws {
        var (machine, plan) = try machine([("a", [], .init()), ("b", [], .init()), ("c", [], .init())], slots: 2)
        _ = machine.begin(at: ms(0), cancelled: false)
        let (first, _) = machine.workerArrived(at: ms(0))
        let (second, secondActions) = machine.workerArrived(at: ms(0))
        #expect(!secondActions.spawnWorker, "both slots are taken")
        #expect(machine.park(9, at: ms(1)).step == nil, "a third worker parks although c is ready")
        #expect(machine.busy == 2)
        let (next, actions) = machine.attemptEnded(runJob(first), outcome: .succeeded, at: ms(5))
        #expect(job(plan, next) == "c#1")
        #expect(actions.resume.isEmpty)
        _ = machine.attemptEnded(runJob(second), outcome: .succeeded, at: ms(6))
    }

    @Test func inputsOutOfTimeOrder_neverMakeRecordedTimesGoBackwards() throws {
        // Workers read the clock before the lock: "b" read 11 ms and got the lock first, "a" read
        // 10 ms and came second. "after" must not start before "b" ended, nor the run end early.
        var (machine, plan) = try machine([("a", [], .init()), ("b", [], .init()), ("after", ["a", "b"], .init())])
        _ = machine.begin(at: ms(0), cancelled: false)
        let (a, _) = machine.workerArrived(at: ms(0))
        let (b, _) = machine.workerArrived(at: ms(0))
        #expect(job(plan, a) == "a#1" && job(plan, b) == "b#1")
        _ = machine.attemptEnded(runJob(b), outcome: .succeeded, at: ms(11))
        let (after, _) = machine.attemptEnded(runJob(a), outcome: .succeeded, at: ms(10))
        #expect(job(plan, after) == "after#1")
        let (_, ended) = machine.attemptEnded(runJob(after), outcome: .succeeded, at: ms(5))
        #expect(ended.settled)
        #expect(machine.records.map(\.end) == [11_000_000, 11_000_000, 11_000_000])
        #expect(machine.records[2].start == 11_000_000)
        #expect(machine.phase == .ended(nil, at: 11_000_000))
    }

    // MARK: - Failures

    @Test func failure_skipsTransitiveDependentsWithTheReason_andIndependentOnesGoOn() throws {
        var (machine, plan) = try machine([
            ("database", [], .init()), ("cache", ["database"], .init()), ("api", ["cache"], .init()), ("logging", [], .init()),
        ])
        _ = machine.begin(at: ms(0), cancelled: false)
        let (database, _) = machine.workerArrived(at: ms(0))
        let (logging, _) = machine.workerArrived(at: ms(0))
        let (next, actions) = machine.attemptEnded(runJob(database), outcome: .threw(Boom()), at: ms(3))
        #expect(next == .park && !actions.cancelWorkers)
        #expect(statuses(machine, plan) == ["database": "failed", "cache": "skipped", "api": "skipped", "logging": "running"])
        guard case .skipped(let reason)? = machine.outcomes[2] else {
            Issue.record("api not skipped")
            return
        }
        #expect(reason == SkipReason(failedCommand: "database", dependency: "cache"))
        let (last, ended) = machine.attemptEnded(runJob(logging), outcome: .succeeded, at: ms(4))
        #expect(last == .exit && ended.settled)
        #expect(RunResult(machine).report(plan: plan).status == .failed)
    }

    @Test func failFast_onARequiredFailure_cancelsReadyAndInFlight_andEndsWhenTheLastAttemptReturns() throws {
        var (machine, plan) = try machine(
            [
                ("a", [], .init()), ("b", [], .init()), ("c", [], .init()), ("after-b", ["b"], .init()),
            ], slots: 2, policy: .failFast)
        _ = machine.begin(at: ms(0), cancelled: false)
        let (b, _) = machine.workerArrived(at: ms(0))  // b first: its remaining path is longer
        let (a, _) = machine.workerArrived(at: ms(0))
        #expect(job(plan, b) == "b#1" && job(plan, a) == "a#1")
        #expect(machine.park(5, at: ms(0)).step == nil)
        let (next, actions) = machine.attemptEnded(runJob(a), outcome: .threw(Boom()), at: ms(2))
        #expect(next == .exit)
        #expect(actions.cancelWorkers)
        #expect(actions.resume.map(\.0) == [5] && actions.resume.map(\.1) == [.exit])
        #expect(actions.kinds == ["exit worker", "cancel workers"], "in the order decided")
        #expect(machine.phase == .stopping(.failFast))
        #expect(statuses(machine, plan) == ["a": "failed", "b": "running", "c": "cancelled", "after-b": "waiting"])
        // The cancelled attempt throws: cancelled, not failed; the run ends; what never ran is cancelled.
        let (last, ended) = machine.attemptEnded(runJob(b), outcome: .threw(CancellationError()), at: ms(3))
        #expect(last == .exit && ended.settled)
        #expect(statuses(machine, plan) == ["a": "failed", "b": "cancelled", "c": "cancelled", "after-b": "cancelled"])
        #expect(machine.phase == .ended(.failFast, at: 3_000_000))
        #expect(RunResult(machine).report(plan: plan).status == .failed)
    }

    @Test func failFast_whenAnOptionalFailureSkipsARequiredCommand_stopsTheRun() throws {
        var (machine, plan) = try machine(
            [
                ("optional", [], CommandOptions(isOptional: true)), ("required", ["optional"], .init()), ("other", [], .init()),
            ], policy: .failFast)
        _ = machine.begin(at: ms(0), cancelled: false)
        let (optional, _) = machine.workerArrived(at: ms(0))
        let (_, actions) = machine.attemptEnded(runJob(optional), outcome: .threw(Boom()), at: ms(1))
        #expect(actions.cancelWorkers)
        #expect(machine.phase == .ended(.failFast, at: 1_000_000))
        #expect(statuses(machine, plan) == ["optional": "failed", "required": "skipped", "other": "cancelled"])
    }

    @Test func failFast_whenAnOptionalFailureSkipsOnlyOptionalCommands_goesOn() throws {
        var (machine, plan) = try machine(
            [
                ("optional", [], CommandOptions(isOptional: true)), ("also-optional", ["optional"], CommandOptions(isOptional: true)),
                ("other", [], .init()),
            ], policy: .failFast)
        _ = machine.begin(at: ms(0), cancelled: false)
        let (optional, _) = machine.workerArrived(at: ms(0))
        let (next, actions) = machine.attemptEnded(runJob(optional), outcome: .threw(Boom()), at: ms(1))
        #expect(!actions.cancelWorkers)
        #expect(job(plan, next) == "other#1")
        #expect(machine.phase == .running(wakePending: true))
    }

    // MARK: - Retries and timeouts

    @Test func retries_handTheSameWorkerTheNextAttemptWithItsDelay_thenFailAfterTheLast() throws {
        let retry = RetryPolicy(maxRetries: 2, initialDelay: .milliseconds(10), multiplier: 3)
        var (machine, plan) = try machine([("flaky", [], CommandOptions(retry: retry))], events: true)
        _ = machine.begin(at: ms(0), cancelled: false)
        let (first, _) = machine.workerArrived(at: ms(0))
        let (second, _) = machine.attemptEnded(runJob(first), outcome: .threw(Boom()), at: ms(1))
        #expect(runJob(second) == Job(position: 0, attempt: 2, delay: .milliseconds(10)))
        let (third, _) = machine.attemptEnded(runJob(second), outcome: .timedOut(ms(5), abandoned: false), at: ms(20))
        #expect(runJob(third) == Job(position: 0, attempt: 3, delay: .milliseconds(30)))
        let (last, actions) = machine.attemptEnded(runJob(third), outcome: .timedOut(ms(5), abandoned: false), at: ms(60))
        #expect(last == .exit && actions.settled)
        #expect(machine.outcomes[0]?.name == "timedOut")
        #expect(machine.records[0].start == 0 && machine.records[0].end == 60_000_000 && machine.records[0].attempts == 3)
        #expect(statuses(machine, plan) == ["flaky": "timedOut"])
        guard case .events(let events) = machine.takeEvents(1) else {
            Issue.record("no events")
            return
        }
        #expect(
            events.map(Self.summary) == [
                "run 1", "started flaky #1 @0ms", "retrying flaky after #1 failed @1ms", "started flaky #2 @1ms",
                "retrying flaky after #2 timedOut @20ms", "started flaky #3 @20ms", "finished flaky timedOut x3 @60ms",
            ])
    }

    @Test func timeout_whileStopping_isReportedAsATimeout_notRetried() throws {
        var (machine, plan) = try machine([("slow", [], CommandOptions(retry: .retry(times: 3)))], events: false)
        _ = machine.begin(at: ms(0), cancelled: false)
        let (slow, _) = machine.workerArrived(at: ms(0))
        _ = machine.cancel(at: ms(1))
        let (next, actions) = machine.attemptEnded(runJob(slow), outcome: .timedOut(ms(2), abandoned: false), at: ms(2))
        #expect(next == .exit && actions.settled)
        #expect(statuses(machine, plan) == ["slow": "timedOut"])
    }

    // MARK: - Cancellation

    @Test func cancel_cancelsReadyCommands_letsAttemptsInFlightEnd_thenEndsAsCancelled() throws {
        var (machine, plan) = try machine([("a", [], .init()), ("b", [], .init()), ("c", ["a"], .init())], slots: 1)
        _ = machine.begin(at: ms(0), cancelled: false)
        let (a, _) = machine.workerArrived(at: ms(0))
        let cancelled = machine.cancel(at: ms(4))
        #expect(!cancelled.settled && cancelled.cancelWorkers, "the attempts in flight are cancelled")
        #expect(machine.phase == .stopping(.cancelled))
        #expect(statuses(machine, plan) == ["a": "running", "b": "cancelled", "c": "waiting"])
        // A command that completes anyway keeps its success; its dependents do not start.
        let (next, ended) = machine.attemptEnded(runJob(a), outcome: .succeeded, at: ms(6))
        #expect(next == .exit && ended.settled)
        #expect(statuses(machine, plan) == ["a": "succeeded", "b": "cancelled", "c": "cancelled"])
        #expect(RunResult(machine).report(plan: plan).status == .cancelled)
        #expect(RunResult(machine).report(plan: plan).wallTime == ms(6))
    }

    // MARK: - Every input in the states after the run

    @Test func inputsAfterStoppingOrEnding_tellWorkersToExit_andChangeNothing() throws {
        var (machine, _) = try machine([("a", [], .init()), ("b", [], .init())])
        _ = machine.begin(at: ms(0), cancelled: false)
        let (a, _) = machine.workerArrived(at: ms(0))
        _ = machine.cancel(at: ms(1))
        // stopping
        #expect(machine.workerArrived(at: ms(1)).0 == .exit)
        #expect(machine.park(1, at: ms(1)).step == .exit)
        #expect(machine.wokenWorkerArrived(at: ms(1)).resume.isEmpty)
        let again = machine.cancel(at: ms(1))
        #expect(!again.settled && !again.cancelWorkers && machine.phase == .stopping(.cancelled))
        _ = machine.attemptEnded(runJob(a), outcome: .succeeded, at: ms(2))
        // ended
        #expect(machine.phase == .ended(.cancelled, at: 2_000_000))
        #expect(machine.workerArrived(at: ms(3)).0 == .exit)
        #expect(machine.park(2, at: ms(3)).step == .exit)
        #expect(!machine.cancel(at: ms(3)).settled)
        #expect(machine.phase == .ended(.cancelled, at: 2_000_000))
    }

    // MARK: - Events

    @Test func events_waitForTheListener_inDecisionOrder_andEndAfterTheLastOne() throws {
        var (machine, plan) = try machine([("a", [], .init()), ("b", ["a"], .init())], events: true)
        // The listener comes before anything happened: it waits.
        guard case .wait = machine.takeEvents(1) else {
            Issue.record("listener did not wait")
            return
        }
        let begun = machine.begin(at: ms(0), cancelled: false)
        #expect(begun.deliver?.0 == 1)
        #expect(begun.deliver?.1?.map(Self.summary) == ["run 2"])
        let (a, arrival) = machine.workerArrived(at: ms(1))
        #expect(arrival.deliver == nil, "the listener is away delivering")
        let (b, _) = machine.attemptEnded(runJob(a), outcome: .succeeded, at: ms(2))
        _ = machine.attemptEnded(runJob(b), outcome: .succeeded, at: ms(3))
        guard case .events(let events) = machine.takeEvents(1) else {
            Issue.record("no events")
            return
        }
        #expect(
            events.map(Self.summary) == [
                "started a #1 @1ms", "finished a succeeded x1 @2ms", "started b #1 @2ms", "finished b succeeded x1 @3ms",
            ])
        guard case .wait = machine.takeEvents(1) else {
            Issue.record("listener did not wait")
            return
        }
        let report = RunResult(machine).report(plan: plan)
        let reported = machine.reportMade(report, settlement: 1)
        #expect(reported.deliver?.1?.map(Self.summary) == ["report succeeded"])
        #expect(!reported.finished, "the run is not closed: on-demand commands may still be requested")
        guard case .wait = machine.takeEvents(1) else {
            Issue.record("listener did not wait")
            return
        }
        let closed = machine.close(at: ms(4))
        #expect(closed.finished && closed.deliver?.0 == 1 && closed.deliver?.1 == nil)
        #expect(closed.kinds == ["deliver", "finish"], "the listener's end before the owner's")
        #expect(machine.state == .finished(.init(reason: nil, at: 3_000_000, number: 1, report: report)))
    }

    @Test func settling_resumesTheWaitAndTheListener_beforeTheOwnerMakesTheReport() throws {
        var (machine, _) = try machine([("a", [], .init())], events: true)
        _ = machine.begin(at: ms(0), cancelled: false)
        let (a, _) = machine.workerArrived(at: ms(1))
        let wait = machine.reserveWait()
        let (outcome, _) = machine.wait(wait, for: [0], waiter: 7, at: ms(2))
        #expect(outcome == nil, "a is still running")
        _ = machine.takeEvents(1)  // the events so far
        guard case .wait = machine.takeEvents(1) else {
            Issue.record("listener did not wait")
            return
        }
        let (step, ended) = machine.attemptEnded(runJob(a), outcome: .succeeded, at: ms(3))
        if case .run = step { Issue.record("nothing is left to run, yet the worker got a job") }
        // The owner's report work comes last: the tasks resumed first are not held up behind it.
        #expect(ended.kinds == ["resolve wait", "deliver", "make report"])
        #expect(ended.resolve.map(\.0) == [7])
    }

    @Test func events_withABatchWindow_waitForItsEnd_butTheReportGoesAtOnce() throws {
        var (machine, plan) = try machine([("a", [], .init()), ("b", ["a"], .init())], events: true, eventWindow: ms(20))
        guard case .wait = machine.takeEvents(1) else {
            Issue.record("listener did not wait")
            return
        }
        // The first events after a quiet time go at once.
        #expect(machine.begin(at: ms(0), cancelled: false).deliver?.1?.map(Self.summary) == ["run 2"])
        guard case .wait = machine.takeEvents(1) else {
            Issue.record("listener did not wait")
            return
        }
        // Within the window of that wake: held back, with one flush at the window's end.
        let (a, arrival) = machine.workerArrived(at: ms(1))
        #expect(arrival.deliver == nil && arrival.flushEvents == ms(20))
        let (b, ended) = machine.attemptEnded(runJob(a), outcome: .succeeded, at: ms(2))
        #expect(ended.deliver == nil && ended.flushEvents == nil, "a flush is due already")
        let flushed = machine.flushEvents(at: ms(20))
        #expect(flushed.deliver?.1?.map(Self.summary) == ["started a #1 @1ms", "finished a succeeded x1 @2ms", "started b #1 @2ms"])
        guard case .wait = machine.takeEvents(1) else {
            Issue.record("listener did not wait")
            return
        }
        let (_, last) = machine.attemptEnded(runJob(b), outcome: .succeeded, at: ms(25))
        #expect(last.deliver == nil && last.flushEvents == ms(40))
        // The run's end does not wait for the window: it goes at once, with what was held back.
        let reported = machine.reportMade(RunResult(machine).report(plan: plan), settlement: 1)
        #expect(reported.deliver?.1?.map(Self.summary) == ["finished b succeeded x1 @25ms", "report succeeded"])
        guard case .wait = machine.takeEvents(1) else {
            Issue.record("listener did not wait")
            return
        }
        let closed = machine.close(at: ms(26))
        #expect(closed.finished && closed.deliver?.0 == 1 && closed.deliver?.1 == nil)
        #expect(machine.flushEvents(at: ms(40)).deliver == nil, "a late flush finds nothing")
    }

    @Test func events_withABatchWindow_goAtOnceWhenItIsOver() throws {
        var (machine, _) = try machine([("a", [], .init())], events: true, eventWindow: ms(20))
        _ = machine.takeEvents(1)
        #expect(machine.begin(at: ms(0), cancelled: false).deliver != nil)
        guard case .wait = machine.takeEvents(1) else {
            Issue.record("listener did not wait")
            return
        }
        let (_, arrival) = machine.workerArrived(at: ms(20))
        #expect(arrival.deliver?.1?.map(Self.summary) == ["started a #1 @20ms"])
        #expect(arrival.flushEvents == nil)
    }

    // MARK: - Services

    /// A plan whose commands named in `services` are services.
    private func serviceMachine(
        _ commands: [(String, [String])], services: Set<String>, slots: Int? = nil,
        events: Bool = false
    ) throws -> (Machine, StartupPlan) {
        var builder = StartupPlanBuilder()
        for (id, dependencies) in commands {
            let ids = dependencies.map { CommandID($0) }
            if services.contains(id) {
                builder.addService(CommandID(id), dependsOn: ids) { _, _ in }
            } else {
                builder.add(CommandID(id), dependsOn: ids) { _ in }
            }
        }
        let plan = try builder.build()
        return (Machine(plan: plan, maxConcurrency: slots, failurePolicy: .continueIndependent, recordsEvents: events), plan)
    }

    @Test func aServiceReady_freesItsSlot_releasesItsDependents_andTheRunIsOverOnlyOnceNothingServes() throws {
        var (machine, plan) = try serviceMachine([("db", []), ("api", ["db"])], services: ["db"], slots: 1)
        _ = machine.begin(at: ms(0), cancelled: false)
        _ = machine.close(at: ms(0))
        let (db, _) = machine.workerArrived(at: ms(0))
        #expect(job(plan, db) == "db#1")
        let ready = machine.serviceReady(runJob(db), at: ms(120))
        #expect(ready.spawnWorker, "the freed slot gets a worker for api")
        #expect(machine.busy == 0 && machine.serving == 1)
        #expect(machine.records[0].end == ms(120).clampedNanoseconds, "a service's end is its readiness")
        let (api, _) = machine.workerArrived(at: ms(121))
        #expect(job(plan, api) == "api#1")
        let (next, ended) = machine.attemptEnded(runJob(api), outcome: .succeeded, at: ms(122))
        #expect(next == .exit && ended.settled)
        let report = RunResult(machine).report(plan: plan)
        #expect(report["db"]?.timeToReady == ms(120))
        #expect(!machine.reportMade(report, settlement: machine.settlements).finished, "db still serves")
        let (step, stopped) = machine.serviceEnded(runJob(db), endedByItself: nil, at: ms(500))
        #expect(step == .exit && stopped.finished && !stopped.shutDown)
    }

    @Test func aServiceThatEndsByItself_isAnEvent_andAsksForTheShutdownOnce() throws {
        var (machine, plan) = try serviceMachine([("db", []), ("cache", [])], services: ["db", "cache"], events: true)
        _ = machine.begin(at: ms(0), cancelled: false)
        let (db, _) = machine.workerArrived(at: ms(0))
        let (cache, _) = machine.workerArrived(at: ms(0))
        _ = machine.serviceReady(runJob(db), at: ms(1))
        _ = machine.serviceReady(runJob(cache), at: ms(2))
        let crash = ServiceEndedError(service: "db", wasReady: true, underlying: Boom())
        let (_, ended) = machine.serviceEnded(runJob(db), endedByItself: crash, at: ms(3))
        #expect(ended.shutDown)
        #expect(machine.beginShutdown(at: ms(4)).isFirst)
        #expect(!machine.beginShutdown(at: ms(5)).isFirst, "the shutdown begins once")
        let (_, stopped) = machine.serviceEnded(runJob(cache), endedByItself: crash, at: ms(6))
        #expect(!stopped.shutDown, "an end during the shutdown asks for nothing")
        guard case .events(let events) = machine.takeEvents(1) else {
            Issue.record("no events")
            return
        }
        #expect(events.map(Self.summary).filter { $0.hasPrefix("service") } == ["service db ended @3ms"])
        _ = plan
    }

    @Test func theReport_goesToEveryReaderWaitingForIt() throws {
        var (machine, plan) = try machine([("a", [], .init())])
        _ = machine.begin(at: ms(0), cancelled: false)
        #expect(machine.waitForReport(7) == nil)
        #expect(machine.waitForReport(8) == nil)
        let (a, _) = machine.workerArrived(at: ms(0))
        _ = machine.attemptEnded(runJob(a), outcome: .succeeded, at: ms(1))
        let report = RunResult(machine).report(plan: plan)
        let made = machine.reportMade(report, settlement: machine.settlements)
        #expect(made.report?.readers == [7, 8])
        #expect(machine.waitForReport(9)?.wallTime == report.wallTime, "a later reader gets it at once")
    }

    // MARK: - Settling again

    @Test func aRequestAfterASettlement_runsAgain_andTheEarlierSettlementsLateReportIsSetAside() throws {
        var (machine, plan) = try machine([("a", [], .init()), ("later", ["a"], CommandOptions(activation: .onDemand))])
        _ = machine.begin(at: ms(0), cancelled: false)
        let (a, _) = machine.workerArrived(at: ms(0))
        let (_, settled) = machine.attemptEnded(runJob(a), outcome: .succeeded, at: ms(1))
        #expect(settled.settled && machine.phase == .ended(nil, at: 1_000_000) && machine.settlements == 1)
        let staleReport = RunResult(machine).report(plan: plan)

        // Requested before the owner made the first report: the run runs again.
        let requested = machine.request([1], at: ms(2))
        #expect(requested.kinds == ["spawn worker"])
        #expect(machine.phase == .running(wakePending: true))
        #expect(machine.reportMade(staleReport, settlement: 1).kinds.isEmpty)
        #expect(machine.report == nil, "the first settlement's report is for a run that moved on")

        let (later, _) = machine.workerArrived(at: ms(3))
        #expect(job(plan, later) == "later#1")
        let (_, again) = machine.attemptEnded(runJob(later), outcome: .succeeded, at: ms(5))
        #expect(again.settled && machine.phase == .ended(nil, at: 5_000_000) && machine.settlements == 2)
        let report = RunResult(machine).report(plan: plan)
        _ = machine.reportMade(report, settlement: 2)
        #expect(machine.report?.status == .succeeded && machine.report?["later"]?.status == .succeeded)
    }

    @Test func aRequestAfterACancelOnceSettled_endsCancelled_inANewSettlement() throws {
        var (machine, plan) = try machine([("a", [], .init()), ("later", [], CommandOptions(activation: .onDemand))])
        _ = machine.begin(at: ms(0), cancelled: false)
        let (a, _) = machine.workerArrived(at: ms(0))
        _ = machine.attemptEnded(runJob(a), outcome: .succeeded, at: ms(1))
        _ = machine.reportMade(RunResult(machine).report(plan: plan), settlement: 1)
        #expect(machine.cancel(at: ms(2)).kinds.isEmpty, "nothing runs: a settled run is only marked")
        #expect(machine.report?.status == .succeeded, "the report of what ran before the cancel stands")

        let requested = machine.request([1], at: ms(3))
        #expect(requested.kinds == ["make report"])
        #expect(machine.settlements == 2 && machine.report == nil)
        #expect(statuses(machine, plan) == ["a": "succeeded", "later": "cancelled"])
    }

    @Test func events_areNotKeptWithoutObservers() throws {
        var (machine, _) = try machine([("a", [], .init())], events: false)
        _ = machine.begin(at: ms(0), cancelled: false)
        let (a, _) = machine.workerArrived(at: ms(0))
        _ = machine.attemptEnded(runJob(a), outcome: .succeeded, at: ms(1))
        guard case .end = machine.takeEvents(1) else {
            Issue.record("a disabled mailbox should end at once")
            return
        }
    }

    private static func summary(_ event: StartupEvent) -> String {
        func ms(_ duration: Duration) -> String {
            "\(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)ms"
        }
        return switch event {
        case .runStarted(let count): "run \(count)"
        case .commandStarted(let id, let attempt, let at): "started \(id) #\(attempt) @\(ms(at))"
        case .commandRetrying(let id, let attempt, let outcome, _, let at): "retrying \(id) after #\(attempt) \(outcome.name) @\(ms(at))"
        case .commandFinished(let id, let status, let attempts, _, let at): "finished \(id) \(status.name) x\(attempts) @\(ms(at))"
        case .runFinished(let report): "report \(report.status)"
        case .serviceEnded(let error, let at): "service \(error.service) ended @\(ms(at))"
        }
    }
}
