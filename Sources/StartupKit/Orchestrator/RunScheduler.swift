import StartupSupport

/// The shell around one run's ``SchedulerStateMachine``: every input reads the clock, takes the
/// lock while the state machine decides, and carries out the resulting actions (resuming
/// workers, waiting tasks and the event listener, messages to the owner) after leaving it. It
/// owns the run's one shutdown: the state machine decides that it begins, and the scheduler then
/// stops the ready services and the modules in one walk (``ShutdownStops``). The workers' loop
/// (``RunWorker``, which also runs the services' lives) and the flush timer
/// (``EventFlushTimer``) are types of their own.
final class RunScheduler: Sendable {
    // Unsafe continuations: their layout is known where they are used (a checked continuation is
    // resilient, so copying an action that holds one goes through value witnesses on every
    // decision). Each is resumed exactly once: the state machine hands every stored worker
    // back in exactly one action, as its tests check.
    typealias WorkerContinuation = UnsafeContinuation<WorkerStep, Never>
    /// Checked, unlike the workers': it is resumed once per batch of events, not per command, and
    /// the check is safe where the listener's resumption races the run's end.
    typealias ListenerContinuation = CheckedContinuation<[StartupEvent]?, Never>
    /// Checked: waits are few, and their resumption races timeouts and cancellation.
    typealias WaiterContinuation = CheckedContinuation<WaitOutcome, Never>
    /// Checked: few tasks wait for the report.
    typealias ReaderContinuation = CheckedContinuation<StartupReport, Never>
    typealias Machine = SchedulerStateMachine<WorkerContinuation, ListenerContinuation, WaiterContinuation, ReaderContinuation>
    typealias Actions = SchedulerActions<WorkerContinuation, ListenerContinuation, WaiterContinuation, ReaderContinuation>

    /// What the owning task must do.
    enum OwnerMessage: Sendable {
        /// Add one worker to the group.
        case spawnWorker
        /// Cancel every worker's attempt (a stop).
        case cancelWorkers
        /// The run settled: make its report.
        case makeReport
        /// The run is over and closed.
        case finished
    }

    /// The state machine, how many decisions it has made (for a test clock), and the services
    /// that signalled ready.
    private struct Decisions: Sendable {
        var machine: Machine
        var count: UInt64 = 0
        /// The supervisors of the services that signalled ready, by position: recorded with the
        /// decision that counts them ready, so a shutdown either finds a service here or the
        /// service finds the shutdown begun.
        var readyServices: [Int: ServiceSupervisor] = [:]
    }

    /// Guards the run's scheduling decisions: the state machine, its count of decisions and the
    /// ready services.
    private let decisions: Locked<Decisions>
    /// The report of the run's one shutdown, given by the caller that began it to every other.
    private let shutdownReport = OneShot<ShutdownReport>()
    /// What the owning task must do, in the order decided.
    private let owner = OwnerMailbox<OwnerMessage>()
    /// The timer that flushes held-back events.
    private let flushTimer = EventFlushTimer()
    /// The command outputs of this run.
    let outputs: OutputStore
    /// The plan being run.
    let plan: StartupPlan
    /// Measures offsets from the start of the run.
    let clock: StartedClock
    private let observers: [any StartupObserver]
    private let recordsEvents: Bool
    private let cancellationGrace: Duration
    /// The threads of the blocking commands; `nil` when the plan has none.
    private let blockingPool: ThreadPool?
    /// What the blocking attempts started with no worker need from the run; `nil` when the plan
    /// has no blocking command.
    private let blockingResources: WorkerResources?
    /// Guards the timed blocking attempts in flight that were started with no worker, by
    /// position, so that a stop gives each its grace; `nil` once the run has stopped. Attempts
    /// are added, taken and stopped outside it.
    private let timedBlockingAttempts = Locked<[Int: TimedBlockingAttempt]?>([:])
    private let tracer: (any StartupTracer)?
    /// Who else reads the events (``StartupRun/events``).
    let subscribers = Broadcast<StartupEvent>()

    /// Prepares a run.
    ///
    /// - Parameters:
    ///   - recordsEvents: Whether events are delivered (observers, or a handle's subscribers).
    ///   - opensGates: Whether every gate is open from the start.
    init(plan: StartupPlan, options: StartupOrchestrator.Options, clock: StartedClock, recordsEvents: Bool, opensGates: Bool) {
        self.plan = plan
        self.clock = clock
        self.observers = options.observers
        self.recordsEvents = recordsEvents
        cancellationGrace = options.cancellationGrace
        let blockingPool = plan.storage.hasBlocking ? ThreadPool(maxThreads: options.blockingThreads) : nil
        self.blockingPool = blockingPool
        tracer = options.tracer
        let outputs = OutputStore(count: plan.count)
        self.outputs = outputs
        blockingResources = blockingPool.map {
            WorkerResources(
                plan: plan, outputs: outputs, cancellationGrace: options.cancellationGrace, blockingPool: $0, tracer: options.tracer)
        }
        decisions = Locked(
            Decisions(
                machine: Machine(
                    plan: plan, maxConcurrency: options.maxConcurrency, failurePolicy: options.failurePolicy,
                    recordsEvents: recordsEvents, opensGates: opensGates, serviceEndPolicy: options.whenAServiceEnds,
                    eventBatchWindow: options.eventBatchWindow, blockingThreads: options.blockingThreads)))
    }

    // MARK: - The owner

    /// Runs the run to its end: adds workers as asked, makes the report each time it settles,
    /// and returns once it is over and closed, nothing serves, and the last event is delivered.
    /// Cancelling the calling task cancels the run, or, if it has services, shuts it down.
    ///
    /// - Precondition: ``begin(cancelled:)`` was called.
    func drive() async {
        await withTaskGroup(of: Void.self) { delivery in
            if recordsEvents {
                // Never on an executor the run prefers (the CLI runs its commands on its process
                // engine's thread): an observer that blocks must not hold up the commands.
                if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
                    delivery.addTask(executorPreference: globalConcurrentExecutor) { await self.deliverEvents() }
                } else {
                    delivery.addTask { await self.deliverEvents() }
                }
            }
            await withTaskGroup(of: Void.self) { workers in
                await withTaskCancellationHandler {
                    // Read to the end even when cancelled: a cancelled run still settles.
                    while let message = await owner.next() {
                        switch message {
                        // At the task priority of a normal command: one of another priority
                        // runs in a child task of its own (``RunWorker``).
                        case .spawnWorker: workers.addTask(priority: .medium) { await RunWorker(of: self).work() }
                        case .cancelWorkers: workers.cancelAll()
                        case .makeReport: makeReport()
                        case .finished: return
                        }
                    }
                } onCancel: {
                    if plan.storage.hasServices { beginShutdown() } else { cancel() }
                }
            }
        }
    }

    /// The report of the latest settlement.
    ///
    /// - Precondition: ``drive()`` has returned.
    var finalReport: StartupReport {
        guard let report = withMachine({ $0.report }) else { preconditionFailure("the report of a run that has not settled") }
        return report
    }

    /// Makes the report of the settled run outside the lock and hands it to whoever waits for it,
    /// unless it is made already.
    ///
    /// - Complexity: O(commands + edges), outside the lock.
    private func makeReport() {
        let snapshot = withMachine { machine -> (RunResult, Int)? in
            guard case .settled(let settlement) = machine.state, settlement.report == nil else { return nil }
            return (RunResult(machine), settlement.number)
        }
        guard let (result, settlement) = snapshot else { return }
        let report = result.report(plan: plan)
        perform(withMachine { $0.reportMade(report, settlement: settlement) })
    }

    // MARK: - Inputs

    /// Starts the run (the owner's messages wait for ``drive()``); `cancelled` if it was
    /// cancelled before it began.
    func begin(cancelled: Bool) {
        let now = clock.elapsed()
        perform(withMachine { $0.begin(at: now, cancelled: cancelled) })
    }

    /// Cancels the run: nothing more starts; the attempts in flight are cancelled.
    func cancel() {
        let now = clock.elapsed()
        perform(withMachine { $0.cancel(at: now) })
    }

    /// Nobody will request commands or open gates any more.
    func close() {
        let now = clock.elapsed()
        perform(withMachine { $0.close(at: now) })
    }

    /// Shuts the run down once: the state machine begins the shutdown (a start-up still going is
    /// cancelled, later requests end cancelled) and no ready service restarts any more; once the
    /// start-up's report is made, every ready service, and every module in `modules` whose
    /// command succeeded, is stopped in one walk in reverse dependency order. Later and
    /// concurrent calls get the first one's report.
    ///
    /// - Precondition: Every key of `modules` is a command of the plan.
    func shutdown(modules: [CommandID: any StoppableModule], stopTimeout: Duration) async -> ShutdownReport {
        let now = clock.elapsed()
        let (isFirst, actions, serving) = withDecisions { decisions in
            let (isFirst, actions) = decisions.machine.beginShutdown(at: now)
            return (isFirst, actions, isFirst ? Array(decisions.readyServices.values) : [])
        }
        perform(actions)
        guard isFirst else { return await shutdownReport.value() }
        for supervisor in serving { supervisor.endRestarts() }
        let report = await report()
        var stops = modules
        // Read again: a service that signalled ready while the start-up was being cancelled stops too.
        for (position, supervisor) in decisions.withLock({ $0.readyServices }) {
            let command = plan.storage.commands[position]
            stops[command.id] = ServiceStop(service: supervisor, attached: modules[command.id], stopTimeout: command.options.stopTimeout)
        }
        let shutdown = await ShutdownStops(plan: plan, report: report, modules: stops, defaultStopTimeout: stopTimeout)
            .stopAll(plan: plan, clock: clock)
        shutdownReport.resolve(shutdown)
        return shutdown
    }

    /// The supervisor of the service at `position`, once it has first been ready.
    func supervisor(at position: Int) -> ServiceSupervisor? {
        // A read, not a decision: a test clock is not told of it.
        decisions.withLock { $0.readyServices[position] }
    }

    /// Shuts the run down in a task of its own, which the cause (a cancelled owner, a service
    /// that ended) cannot cancel.
    func beginShutdown() {
        Task { _ = await self.shutdown(modules: [:], stopTimeout: ShutdownStops.defaultStopTimeout) }
    }

    /// Requests the commands at `positions` (and what they need).
    func request(_ positions: [Int]) {
        let now = clock.elapsed()
        perform(withMachine { $0.request(positions, at: now) })
    }

    /// Opens the gate at `position`.
    func open(_ position: Int) {
        let now = clock.elapsed()
        perform(withMachine { $0.open(position, at: now) })
    }

    /// Waits until the commands at `positions` have ended (requesting them), at most `timeout`
    /// by the run's clock. Cancelling the calling task ends the wait with `.cancelled`.
    func wait(for positions: [Int], timeout: Duration?) async -> WaitOutcome {
        let id = withMachine { $0.reserveWait() }
        // Not a child task: the waiter returns the moment it is resumed, without waiting for the
        // cancelled timer to wind down.
        let timer = timeout.map { timeout in clock.timer(after: timeout) { self.endWait(id, as: .timedOut) } }
        defer { timer?.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: WaiterContinuation) in
                let now = clock.elapsed()
                let (outcome, actions) = withMachine { $0.wait(id, for: positions, waiter: continuation, at: now) }
                perform(actions)
                if let outcome { continuation.resume(returning: outcome) }
            }
        } onCancel: {
            endWait(id, as: .cancelled)
        }
    }

    /// The report, once the run has settled.
    func report() async -> StartupReport {
        await withCheckedContinuation { (continuation: ReaderContinuation) in
            if let report = withMachine({ $0.waitForReport(continuation) }) {
                continuation.resume(returning: report)
            }
        }
    }

    private func endWait(_ id: Int, as preemption: WaitBook<WaiterContinuation>.Preemption) {
        let now = clock.elapsed()
        perform(withMachine { $0.endWait(id, as: preemption, at: now) })
    }

    // MARK: - Workers and services

    /// What a new worker's commands need from the run (each worker has its own).
    func makeWorkerResources() -> WorkerResources {
        WorkerResources(plan: plan, outputs: outputs, cancellationGrace: cancellationGrace, blockingPool: blockingPool, tracer: tracer)
    }

    /// A new worker comes for its first job; returns its step.
    func workerArrived() -> WorkerStep {
        let now = clock.elapsed()
        return decide { $0.workerArrived(at: now) }
    }

    /// An attempt ended; returns the worker's next step.
    func attemptEnded(_ job: Job, outcome: AttemptOutcome) -> WorkerStep {
        noteAbandonment(of: job, outcome: outcome)
        let now = clock.elapsed()
        return decide { $0.attemptEnded(job, outcome: outcome, at: now) }
    }

    /// An attempt of a blocking command ended that was started with no worker; called on the
    /// thread that learnt it (a pool thread, or the clock's for an abandonment).
    private func blockingAttemptEnded(_ job: Job, outcome: AttemptOutcome) {
        noteAbandonment(of: job, outcome: outcome)
        let now = clock.elapsed()
        perform(withMachine { $0.blockingAttemptEnded(job, outcome: outcome, at: now) })
    }

    /// A blocking attempt abandoned after its timeout still holds its pool thread: the pool may
    /// start one more for the work handed out in its place.
    private func noteAbandonment(of job: Job, outcome: AttemptOutcome) {
        guard case .timedOut(_, abandoned: true) = outcome, let blockingPool, plan.storage.commands[job.position].isBlocking else { return }
        blockingPool.workWasAbandoned()
    }

    /// Starts an attempt of a blocking command on the pool, from the thread that decided it; the
    /// pool thread (or, under a timeout, whichever thread decides the outcome) reports its end.
    private func startBlocking(_ job: Job) {
        guard let blockingPool, let blockingResources else { preconditionFailure("a blocking command in a run without a blocking pool") }
        let context = StartupContext(attempt: job.attempt, index: job.position, run: blockingResources)
        let command = plan.storage.commands[job.position]
        guard let timeout = command.options.timeout else {
            guard let body = command.runBlocking else { preconditionFailure("not a blocking command") }
            blockingPool.submit(body, for: context) { result in
                self.blockingAttemptEnded(job, outcome: AttemptRunner.store(result, of: context))
            }
            return
        }
        let attempt = TimedBlockingAttempt(job, timeout: timeout, context: context, clock: clock) { outcome in
            self.timedBlockingAttempts.withLock { _ = $0?.removeValue(forKey: job.position) }
            self.blockingAttemptEnded(job, outcome: outcome)
        }
        let stopped = timedBlockingAttempts.withLock { attempts in
            guard attempts != nil else { return true }
            attempts?[job.position] = attempt
            return false
        }
        attempt.start(on: blockingPool)
        if stopped { attempt.stop() }
    }

    /// The run stops: each timed blocking attempt in flight gets the grace (as a worker's attempt
    /// does when it is cancelled), and so does any started later.
    private func stopBlockingAttempts() {
        let attempts = timedBlockingAttempts.withLock { attempts in
            defer { attempts = nil }
            return attempts.map { Array($0.values) } ?? []
        }
        for attempt in attempts { attempt.stop() }
    }

    /// Waits to be handed a job, or told to exit.
    func park() async -> WorkerStep {
        let now = clock.elapsed()
        var takenAtOnce: WorkerStep?
        let handedOver = await withUnsafeContinuation { (continuation: WorkerContinuation) in
            let (step, actions) = withMachine { $0.park(continuation, at: now) }
            perform(actions)
            if let step {
                takenAtOnce = step
                continuation.resume(returning: step)
            }
        }
        if let takenAtOnce { return takenAtOnce }
        if case .run = handedOver {
            let arrival = clock.elapsed()
            perform(withMachine { $0.wokenWorkerArrived(at: arrival) })
        }
        return handedOver
    }

    /// The service of `job` signalled ready; `supervisor` keeps it until it ends for good.
    func serviceReady(_ job: Job, supervisor: ServiceSupervisor) {
        let now = clock.elapsed()
        let (actions, isShuttingDown) = withDecisions { decisions in
            decisions.readyServices[job.position] = supervisor
            return (decisions.machine.serviceReady(job, at: now), decisions.machine.isShuttingDown)
        }
        if isShuttingDown { supervisor.endRestarts() }
        perform(actions)
    }

    /// A ready service ended by itself and will be restarted.
    func serviceRestarting(_ ended: ServiceEndedError) {
        let now = clock.elapsed()
        perform(withMachine { $0.serviceRestarting(ended, at: now) })
    }

    /// A ready service has ended for good; returns the worker's next step.
    func serviceEnded(_ job: Job, endedByItself: ServiceEndedError?) -> WorkerStep {
        let now = clock.elapsed()
        return decide { $0.serviceEnded(job, endedByItself: endedByItself, at: now) }
    }

    // MARK: - Events

    /// Delivers the run's events to the observers and subscribers, in order, until the last
    /// one: the only place they are called, so a slow one delays the events, never the commands.
    private func deliverEvents() async {
        while let events = await nextEvents() {
            // The streams subscribed when the batch is handed over get it, after the observers.
            let streams = subscribers.current()
            for observer in observers { observer.observe(contentsOf: events) }
            for stream in streams {
                for event in events { stream.yield(event) }
            }
        }
        subscribers.finish()
    }

    /// The next events for the listeners, or `nil` after the last.
    private func nextEvents() async -> [StartupEvent]? {
        await withCheckedContinuation { (continuation: ListenerContinuation) in
            switch withMachine({ $0.takeEvents(continuation) }) {
            case .events(let events): continuation.resume(returning: events)
            case .end: continuation.resume(returning: nil)
            case .wait: break
            }
        }
    }

    /// Flushes the held-back events at `due` (run time), by a timer on the run's clock.
    private func flushEvents(at due: Duration) {
        flushTimer.arm(
            clock.timer(after: due - clock.elapsed()) { [clock] in
                let now = clock.elapsed()
                self.perform(self.withMachine { $0.flushEvents(at: now) })
            })
    }

    /// Runs one input of the state machine under its lock. On a test clock, the clock then learns
    /// how many attempts are in flight, so that a test can wait until all of them sleep on it.
    private func withMachine<Result>(_ input: (inout Machine) -> Result) -> Result {
        withDecisions { input(&$0.machine) }
    }

    /// ``withMachine(_:)`` for an input that also reads or records the ready services.
    private func withDecisions<Result>(_ input: (inout Decisions) -> Result) -> Result {
        guard clock.driving != nil else { return decisions.withLock { input(&$0) } }
        let (result, inFlight, decision) = decisions.withLock { decisions in
            decisions.count &+= 1
            return (input(&decisions), decisions.machine.attemptsInFlight, decisions.count)
        }
        clock.attemptsInFlight(inFlight, decision: decision)
        return result
    }

    private func decide(_ input: (inout Machine) -> (WorkerStep, Actions)) -> WorkerStep {
        let (step, actions) = withMachine(input)
        perform(actions)
        return step
    }

    /// Carries out the actions of one decision, in order, outside the lock; except that blocking
    /// attempts start after the rest: starting one may start a thread, and a worker the same
    /// decision resumes or asks for should not wait behind that.
    private func perform(_ actions: Actions) {
        var startsBlocking = false
        for action in actions {
            switch action {
            case .resume(let worker, let step): worker.resume(returning: step)
            case .startBlocking: startsBlocking = true
            case .resolve(let waiter, let outcome): waiter.resume(returning: outcome)
            case .handReport(let readers, let report): for reader in readers { reader.resume(returning: report) }
            case .deliver(let listener, let events): listener.resume(returning: events)
            case .flushEvents(let due): flushEvents(at: due)
            case .spawnWorker: owner.post(.spawnWorker)
            case .cancelWorkers:
                if blockingPool != nil { stopBlockingAttempts() }
                owner.post(.cancelWorkers)
            case .makeReport: owner.post(.makeReport)
            case .shutDown: beginShutdown()
            case .finish:
                flushTimer.finish()
                owner.post(.finished)
                owner.finish()
            }
        }
        guard startsBlocking else { return }
        for case .startBlocking(let job) in actions { startBlocking(job) }
    }
}
