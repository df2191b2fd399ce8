/// Shares one run's ``SchedulerState`` between the workers and the owning task, under a lock
/// held only while the state decides; continuations are resumed after it is released.
final class RunScheduler: Sendable {
    private let state: Locked<SchedulerState>
    /// The command outputs of this run.
    let outputs: OutputStore
    /// The plan being run.
    let plan: StartupPlan
    /// Measures offsets from the start of the run.
    let clock: StartedClock

    init(plan: StartupPlan, options: StartupOrchestrator.Options, clock: StartedClock) {
        self.plan = plan
        self.clock = clock
        self.outputs = OutputStore(count: plan.count)
        self.state = Locked(SchedulerState(plan: plan, options: options, clock: clock))
    }

    /// Starts the run.
    func begin() {
        let cancelled = Task.isCancelled
        state.withLock { $0.begin(cancelled: cancelled) }.perform()
    }

    /// A worker's loop: takes a ready command, runs it inline, reports its end and takes the next,
    /// parking when nothing is ready, until the run is over.
    func work() async {
        let resources = WorkerResources(plan: plan, outputs: outputs)
        var job = take()
        while true {
            if let current = job {
                let outcome = await AttemptRunner.run(current, resources: resources, clock: clock)
                let end = clock.elapsed()
                job = locked { state, effects in state.finish(current, outcome: outcome, at: end, effects: &effects) }
            } else if let (woken, handedOver) = await park() {
                job = woken
                if handedOver { locked { state, effects in state.workerArrived(effects: &effects) } }
            } else {
                return
            }
        }
    }

    /// What the owner must do next, waiting until there is something.
    func nextOwnerSignal() async -> OwnerSignal {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if let signal = state.withLock({ $0.takeOwnerSignal(waiter: continuation) }) {
                    continuation.resume(returning: signal)
                }
            }
        } onCancel: {
            locked { state, effects in state.stopAll(.cancelled, effects: &effects) }
        }
    }

    /// Ends the run: marks what never ran as cancelled and builds the report.
    func makeReport() -> StartupReport {
        state.withLock { $0.makeReport() }
    }

    private func take() -> Job? {
        locked { state, effects in state.takeJob(parking: nil, effects: &effects) }
    }

    /// Waits for a job: one that is ready now, or one a finishing worker hands over (`handedOver`);
    /// `nil` when the run is over.
    private func park() async -> (job: Job, handedOver: Bool)? {
        var takenNow: Job?
        let handedOver: Job? = await withCheckedContinuation { continuation in
            var effects = SchedulerState.Effects()
            takenNow = state.withLock { $0.takeJob(parking: continuation, effects: &effects) }
            effects.perform()
            if takenNow != nil { continuation.resume(returning: nil) }
        }
        if let takenNow { return (takenNow, false) }
        return handedOver.map { ($0, true) }
    }

    /// Runs `body` under the lock, then carries out its effects.
    @discardableResult
    private func locked<Result: Sendable>(_ body: (inout SchedulerState, inout SchedulerState.Effects) -> Result) -> Result {
        let (result, effects) = state.withLock { state in
            var effects = SchedulerState.Effects()
            let result = body(&state, &effects)
            return (result, effects)
        }
        effects.perform()
        return result
    }
}
