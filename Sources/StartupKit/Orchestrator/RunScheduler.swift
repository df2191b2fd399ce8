/// The shell around one run's ``SchedulerStateMachine``: it holds the lock only while the state
/// machine decides, and carries out the resulting actions (resuming workers, waiting tasks and
/// the event listener, messages to the owner) after leaving it. Clock readings are taken before
/// the lock.
final class RunScheduler: Sendable {
    // Unsafe continuations: their layout is known where they are used (a checked continuation is
    // resilient, and copying actions that hold one went through value witnesses on every
    // decision). Each is resumed exactly once: the state machine hands every stored worker
    // back in exactly one action, as its tests check.
    typealias WorkerContinuation = UnsafeContinuation<WorkerStep, Never>
    /// Checked, unlike the workers': it is resumed once per batch of events, so the check costs
    /// nothing that shows, and it is safe where the listener's resumption races the run's end.
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
        case settled
        /// The run is over and closed.
        case finished
    }

    /// Guards the run's scheduling decisions: the state machine, nothing else.
    private let machine: Locked<Machine>
    /// What the owning task must do, in the order decided.
    private let owner = OwnerMailbox<OwnerMessage>()
    /// The services that signalled ready, by position (what the shutdown stops), and whether the
    /// shutdown has begun (after which no service restarts).
    private struct Services: Sendable {
        var supervisors: [Int: ServiceSupervisor] = [:]
        var shutdownBegun = false
    }

    /// Guards the services that signalled ready and whether the shutdown has begun.
    private let services = Locked(Services())
    /// The run's one shutdown.
    private let shutdownOnce = ShutdownOnce()
    /// The timer that flushes held-back events (``EventMailbox``).
    private enum FlushTimer {
        case idle
        case armed(Task<Void, Never>)
        /// The run is over: a timer armed now is cancelled at once.
        case finished
    }

    /// Guards the flush timer, so the run's end cancels it whichever of the two comes first.
    private let eventFlush = Locked(FlushTimer.idle)
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
    private let blockingPool: BlockingPool?
    private let tracer: (any StartupTracer)?
    /// Who else reads the events (``StartupRun/events``).
    let subscribers = EventSubscribers()

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
        blockingPool = plan.storage.hasBlocking ? BlockingPool(maxThreads: options.blockingThreads) : nil
        tracer = options.tracer
        outputs = OutputStore(count: plan.count)
        machine = Locked(
            Machine(
                plan: plan, maxConcurrency: options.maxConcurrency, failurePolicy: options.failurePolicy,
                recordsEvents: recordsEvents, opensGates: opensGates, serviceEndPolicy: options.whenAServiceEnds,
                eventBatchWindow: options.eventBatchWindow, blockingThreads: options.blockingThreads))
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
                        // runs in a child task of its own (``runAttempt(_:resources:)``).
                        case .spawnWorker: workers.addTask(priority: .medium) { await self.work() }
                        case .cancelWorkers: workers.cancelAll()
                        case .settled: makeReport()
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
        guard let report = machine.withLock({ $0.report }) else { preconditionFailure("the report of a run that has not ended") }
        return report
    }

    /// Makes the report of the settled run outside the lock and hands it to whoever waits for it,
    /// unless it is made already.
    ///
    /// - Complexity: O(commands + edges), outside the lock.
    private func makeReport() {
        let snapshot = machine.withLock { machine -> (RunResult, Int)? in
            guard case .ended = machine.phase, machine.report == nil else { return nil }
            return (RunResult(machine), machine.settlements)
        }
        guard let (result, settlement) = snapshot else { return }
        let report = result.report(plan: plan)
        perform(machine.withLock { $0.reportMade(report, settlement: settlement) })
    }

    // MARK: - Inputs

    /// Starts the run (the owner's messages wait for ``drive()``); `cancelled` if it was
    /// cancelled before it began.
    func begin(cancelled: Bool) {
        let now = clock.elapsed()
        perform(machine.withLock { $0.begin(at: now, cancelled: cancelled) })
    }

    /// Cancels the run: nothing more starts; the attempts in flight are cancelled.
    func cancel() {
        let now = clock.elapsed()
        perform(machine.withLock { $0.cancel(at: now) })
    }

    /// Nobody will request commands or open gates any more.
    func close() {
        let now = clock.elapsed()
        perform(machine.withLock { $0.close(at: now) })
    }

    /// Shuts the run down once: cancels a start-up still going, waits for its report, then stops
    /// every ready service, and every module in `modules` whose command succeeded, in one walk in
    /// reverse dependency order (``StartupLifecycle/shutdown()``). Later and concurrent calls
    /// get the first one's report.
    ///
    /// - Precondition: Every key of `modules` is a command of the plan.
    func shutdown(modules: [CommandID: any LifecycleModule], stopTimeout: Duration) async -> ShutdownReport {
        await shutdownOnce.perform {
            let now = clock.elapsed()
            perform(machine.withLock { $0.beginShutdown(at: now).actions })
            let serving = services.withLock { services in
                services.shutdownBegun = true
                return Array(services.supervisors.values)
            }
            for supervisor in serving { supervisor.shutdownBegan() }
            let report = await report()
            var stops = modules
            for (position, supervisor) in services.withLock({ $0.supervisors }) {
                let command = plan.storage.commands[position]
                stops[command.id] = ServiceStop(
                    service: supervisor, attached: modules[command.id], stopTimeout: command.options.stopTimeout)
            }
            let lifecycle = StartupLifecycle(
                plan: plan, report: report, modules: stops,
                options: StartupLifecycle.Options(stopTimeout: stopTimeout), startedClock: clock)
            return await lifecycle.shutdown()
        }
    }

    /// Shuts the run down in a task of its own, which the cause (a cancelled owner, a service
    /// that ended) cannot cancel.
    func beginShutdown() {
        Task { _ = await self.shutdown(modules: [:], stopTimeout: StartupLifecycle.Options().stopTimeout) }
    }

    /// Requests the commands at `positions` (and what they need).
    func request(_ positions: [Int]) {
        let now = clock.elapsed()
        perform(machine.withLock { $0.request(positions, at: now) })
    }

    /// Opens the gate at `position`.
    func open(_ position: Int) {
        let now = clock.elapsed()
        perform(machine.withLock { $0.open(position, at: now) })
    }

    /// Waits until the commands at `positions` have ended (requesting them), at most `timeout`
    /// by the run's clock. Cancelling the calling task ends the wait with `.cancelled`.
    func wait(for positions: [Int], timeout: Duration?) async -> WaitOutcome {
        let id = machine.withLock { $0.reserveWait() }
        // Not a child task: the waiter returns the moment it is resumed, without waiting for the
        // cancelled timer to wind down.
        let timer = timeout.map { timeout in
            Task { [clock] in
                guard (try? await clock.sleep(timeout)) != nil else { return }
                self.endWait(id, as: .timedOut)
            }
        }
        defer { timer?.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: WaiterContinuation) in
                let now = clock.elapsed()
                let (outcome, actions) = machine.withLock { $0.wait(id, for: positions, waiter: continuation, at: now) }
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
            if let report = machine.withLock({ $0.waitForReport(continuation) }) {
                continuation.resume(returning: report)
            }
        }
    }

    private func endWait(_ id: Int, as preemption: WaitBook<WaiterContinuation>.Preemption) {
        let now = clock.elapsed()
        perform(machine.withLock { $0.endWait(id, as: preemption, at: now) })
    }

    // MARK: - Workers and events

    /// A worker's loop: runs its job inline, reports its end and takes the next, parking when
    /// nothing is ready, until the run needs it no more.
    private func work() async {
        let resources = WorkerResources(
            plan: plan, outputs: outputs, cancellationGrace: cancellationGrace, blockingPool: blockingPool, tracer: tracer)
        let hasServices = plan.storage.hasServices
        let arrival = clock.elapsed()
        var step = decide { $0.workerArrived(at: arrival) }
        while true {
            switch step {
            case .run(let job):
                if hasServices, let serve = plan.storage.commands[job.position].serve {
                    step = await runService(job, serve: serve, resources: resources)
                    continue
                }
                let outcome = await runAttempt(job, resources: resources)
                if case .timedOut(_, abandoned: true) = outcome, let blockingPool, plan.storage.commands[job.position].isBlocking {
                    blockingPool.workWasAbandoned()
                }
                let end = clock.elapsed()
                step = decide { $0.attemptEnded(job, outcome: outcome, at: end) }
            case .park:
                step = await park()
            case .exit:
                return
            }
        }
    }

    /// Runs one attempt at the task priority of its command's effective priority: inline in the
    /// worker (whose priority is a normal command's), or in a child task of that priority.
    @inline(__always)
    private func runAttempt(_ job: Job, resources: WorkerResources) async -> AttemptOutcome {
        let priority = job.priority
        guard priority != 0 else { return await AttemptRunner.run(job, resources: resources, clock: clock) }
        return await withTaskGroup(of: AttemptOutcome.self) { group in
            group.addTask(priority: priority > 0 ? .high : .utility) {
                await AttemptRunner.run(job, resources: resources, clock: self.clock)
            }
            return await group.next()!
        }
    }

    /// Runs one attempt of a service: until it is ready (then its dependents may start) or its
    /// attempt ends, and once ready, until it has ended for good, restarting it as its
    /// ``RestartPolicy`` says. Returns the worker's next step.
    private func runService(
        _ job: Job, serve: @escaping @Sendable (StartupContext, ServiceAttempt) async throws -> Void, resources: WorkerResources
    ) async -> WorkerStep {
        if job.delay > .zero, (try? await clock.sleep(job.delay)) == nil {
            let end = clock.elapsed()
            return decide { $0.attemptEnded(job, outcome: .threw(CancellationError()), at: end) }
        }
        let command = plan.storage.commands[job.position]
        let attempt = ServiceAttempt(id: command.id)
        let context = StartupContext(attempt: job.attempt, index: job.position, run: resources)
        switch await attempt.start(context, serve: serve, timeout: command.options.timeout, clock: clock) {
        case .ended(let outcome):
            let end = clock.elapsed()
            return decide { $0.attemptEnded(job, outcome: outcome, at: end) }
        case .ready(let output):
            if command.producesOutput { outputs.store(output, at: job.position) }
            let supervisor = ServiceSupervisor(id: command.id, policy: command.options.restart, clock: clock, first: attempt)
            // Known to the shutdown before the run counts it ready, so no shutdown misses it.
            let shutdownBegun = services.withLock { services in
                services.supervisors[job.position] = supervisor
                return services.shutdownBegun
            }
            if shutdownBegun { supervisor.shutdownBegan() }
            let readyAt = clock.elapsed()
            perform(machine.withLock { $0.serviceReady(job, at: readyAt) })
            let (endedByItself, final) = await supervisor.superviseUntilEnd { next, restart in
                // A restart's readiness changes nothing for the run: its dependents kept running.
                let context = StartupContext(attempt: job.attempt, restart: restart, index: job.position, run: resources)
                return await next.start(context, serve: serve, timeout: command.options.timeout, clock: clock)
            } announce: { restarting in
                let now = clock.elapsed()
                perform(machine.withLock { $0.serviceRestarting(restarting, at: now) })
            }
            let end = clock.elapsed()
            let step = decide { $0.serviceEnded(job, endedByItself: endedByItself, at: end) }
            supervisor.endRecorded(final)
            return step
        }
    }

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

    private func decide(_ input: (inout Machine) -> (WorkerStep, Actions)) -> WorkerStep {
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

    /// The next events for the listeners, or `nil` after the last.
    private func nextEvents() async -> [StartupEvent]? {
        await withCheckedContinuation { (continuation: ListenerContinuation) in
            switch machine.withLock({ $0.takeEvents(continuation) }) {
            case .events(let events): continuation.resume(returning: events)
            case .end: continuation.resume(returning: nil)
            case .wait: break
            }
        }
    }

    /// Flushes the held-back events at `due` (run time), by a timer on the run's clock.
    private func flushEvents(at due: Duration) {
        let timer = Task { [clock] in
            guard (try? await clock.sleep(due - clock.elapsed())) != nil else { return }
            let now = clock.elapsed()
            self.perform(self.machine.withLock { $0.flushEvents(at: now) })
        }
        let kept = eventFlush.withLock { state in
            guard case .finished = state else {
                state = .armed(timer)  // an earlier timer has flushed already: no flush is due before this one
                return true
            }
            return false
        }
        if !kept { timer.cancel() }
    }

    private func perform(_ actions: Actions) {
        for (worker, step) in actions.resume { worker.resume(returning: step) }
        for (waiter, outcome) in actions.resolve { waiter.resume(returning: outcome) }
        if let (readers, report) = actions.report {
            for reader in readers { reader.resume(returning: report) }
        }
        if let (listener, events) = actions.deliver { listener.resume(returning: events) }
        if actions.spawnWorker { owner.post(.spawnWorker) }
        if actions.cancelWorkers { owner.post(.cancelWorkers) }
        if actions.settled { owner.post(.settled) }
        if actions.shutDown { beginShutdown() }
        if let due = actions.flushEvents { flushEvents(at: due) }
        if actions.finished {
            let armed = eventFlush.withLock { state -> Task<Void, Never>? in
                defer { state = .finished }
                guard case .armed(let timer) = state else { return nil }
                return timer
            }
            armed?.cancel()
            owner.post(.finished)
            owner.finish()
        }
    }
}
