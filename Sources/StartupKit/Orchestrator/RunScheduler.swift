/// The shell around one run's ``SchedulerStateMachine``: it holds the lock only while the state
/// machine decides, and carries out the resulting actions (resuming workers and the event
/// listener, messages to the owner) after leaving it. Clock readings are taken before the lock.
final class RunScheduler: Sendable {
    // Unsafe continuations: their layout is known where they are used (a checked continuation is
    // resilient, and copying actions that hold one went through value witnesses on every
    // decision). Each is resumed exactly once: the state machine hands every stored worker and
    // listener back in exactly one action, as its tests check.
    typealias WorkerContinuation = UnsafeContinuation<WorkerStep, Never>
    /// Checked, unlike the workers': it is resumed once per batch of events, so the check costs
    /// nothing that shows, and with `UnsafeContinuation` here release builds of the CLI crashed
    /// (a job with a null resume function) where debug builds and a checked one did not.
    typealias ListenerContinuation = CheckedContinuation<[StartupEvent]?, Never>
    typealias Machine = SchedulerStateMachine<WorkerContinuation, ListenerContinuation>

    /// What the owning task must do.
    enum OwnerMessage: Sendable {
        /// Add one worker to the group.
        case spawnWorker
        /// Cancel every worker's attempt (fail-fast).
        case cancelWorkers
        /// Every command has ended.
        case runEnded
    }

    /// Guards the run's scheduling decisions: the state machine, nothing else.
    private let machine: Locked<Machine>
    private let ownerContinuation: AsyncStream<OwnerMessage>.Continuation
    /// What the owning task must do, in the order decided.
    let ownerMessages: AsyncStream<OwnerMessage>
    /// The command outputs of this run.
    let outputs: OutputStore
    /// The plan being run.
    let plan: StartupPlan
    /// Measures offsets from the start of the run.
    let clock: StartedClock
    private let observers: [any StartupObserver]

    init(plan: StartupPlan, options: StartupOrchestrator.Options, clock: StartedClock) {
        self.plan = plan
        self.clock = clock
        self.observers = options.observers
        outputs = OutputStore(count: plan.count)
        machine = Locked(Machine(plan: plan, maxConcurrency: options.maxConcurrency, failurePolicy: options.failurePolicy,
                                 recordsEvents: !options.observers.isEmpty))
        (ownerMessages, ownerContinuation) = AsyncStream<OwnerMessage>.makeStream()
    }

    /// Whether the run has observers, and so needs ``deliverEvents()`` running.
    var deliversEvents: Bool { !observers.isEmpty }

    /// Starts the run; `cancelled` if it was cancelled before it began.
    func begin(cancelled: Bool) {
        let now = clock.elapsed()
        perform(machine.withLock { $0.begin(at: now, cancelled: cancelled) })
    }

    /// Cancels the run: nothing more starts; the owner cancels the attempts in flight.
    func cancel() {
        let now = clock.elapsed()
        perform(machine.withLock { $0.cancel(at: now) })
    }

    /// A worker's loop: runs its job inline, reports its end and takes the next, parking when
    /// nothing is ready, until the run needs it no more.
    func work() async {
        let resources = WorkerResources(plan: plan, outputs: outputs)
        let arrival = clock.elapsed()
        var step = decide { $0.workerArrived(at: arrival) }
        while true {
            switch step {
            case .run(let job):
                let outcome = await AttemptRunner.run(job, resources: resources, clock: clock)
                let end = clock.elapsed()
                step = decide { $0.attemptEnded(job, outcome: outcome, at: end) }
            case .park:
                step = await park()
            case .exit:
                return
            }
        }
    }

    /// Delivers the run's events to the observers, in order, until the last one: the only
    /// place observers are called, so a slow observer delays the events, never the commands.
    func deliverEvents() async {
        while let events = await nextEvents() {
            for event in events {
                for observer in observers { observer.observe(event) }
            }
        }
    }

    /// Makes the report of the ended run and hands its last event to the observers.
    ///
    /// - Precondition: The owner was told the run ended.
    /// - Complexity: O(commands + edges), outside the lock.
    func makeReport() -> StartupReport {
        let result = machine.withLock { RunResult($0) }
        let report = result.report(plan: plan)
        perform(machine.withLock { $0.closeEvents(with: .runFinished(report)) })
        return report
    }

    // MARK: - Carrying out decisions

    private func decide(_ input: (inout Machine) -> (WorkerStep, SchedulerActions<WorkerContinuation, ListenerContinuation>)) -> WorkerStep {
        let (step, actions) = machine.withLock(input)
        perform(actions)
        return step
    }

    /// Waits to be handed a job, or told to exit.
    private func park() async -> WorkerStep {
        let now = clock.elapsed()
        var takenAtOnce: WorkerStep?
        let handedOver = await withUnsafeContinuation { (continuation: WorkerContinuation) in
            let (step, actions) = machine.withLock { $0.park(continuation, at: now) }
            perform(actions)
            if let step {
                takenAtOnce = step
                continuation.resume(returning: step)
            }
        }
        if let takenAtOnce { return takenAtOnce }
        if case .run = handedOver {
            let arrival = clock.elapsed()
            perform(machine.withLock { $0.wokenWorkerArrived(at: arrival) })
        }
        return handedOver
    }

    /// The next events for the observers, or `nil` after the last.
    private func nextEvents() async -> [StartupEvent]? {
        await withCheckedContinuation { (continuation: ListenerContinuation) in
            switch machine.withLock({ $0.takeEvents(continuation) }) {
            case .events(let events): continuation.resume(returning: events)
            case .end: continuation.resume(returning: nil)
            case .wait: break
            }
        }
    }

    private func perform(_ actions: SchedulerActions<WorkerContinuation, ListenerContinuation>) {
        for (worker, step) in actions.resume { worker.resume(returning: step) }
        if let (listener, events) = actions.deliver { listener.resume(returning: events) }
        if actions.spawnWorker { ownerContinuation.yield(.spawnWorker) }
        if actions.cancelWorkers { ownerContinuation.yield(.cancelWorkers) }
        if actions.runEnded {
            ownerContinuation.yield(.runEnded)
            ownerContinuation.finish()
        }
    }
}
