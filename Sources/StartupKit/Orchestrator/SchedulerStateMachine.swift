/// The scheduling decisions of one run, as a plain value: dependency counts, the ready queue,
/// what happened to each command, which commands the run wants, gates, waits, the parked
/// workers and where the run stands (``SchedulerState``).
///
/// Every method is an input (the run begins, a worker comes, an attempt ends at a time, a
/// command is requested, a gate opens, a task waits, the run is cancelled, ...) and returns the
/// ``SchedulerActions`` to carry out, in order. It never reads a clock, resumes a continuation, calls an
/// observer or does I/O: the times come with the inputs, and `Worker`, `Listener`, `Waiter` and
/// `Reader` (a task waiting for the report) are opaque tokens (continuations in ``RunScheduler``, numbers in tests) that only the actions
/// hand back. So it can be driven input by input in tests, and its shell holds the lock only
/// while it decides.
///
/// Wanted commands: the eager ones and what they need, then on-demand ones as they are requested
/// (with what they need). The run *settles* when nothing runs and every wanted command has ended;
/// a later request runs again. Gates end when opened once their dependencies have succeeded.
///
/// Services: a service that signals ready has succeeded for its dependents and frees its slot;
/// it is *serving* until it ends. The run is over only when nothing serves. A service that ends
/// by itself is reported, and, by the run's ``ServiceEndPolicy``, asks for the shutdown.
///
/// Order: a free slot goes to the best ready command (``ReadyCandidate``): first the commands a
/// task waits for and their unfinished ancestors (*urgent*), then by ``ReadyKey``. Blocking
/// commands (``BlockingStartupCommand``) are queued apart and start only while the run's
/// blocking pool has a thread for them, so the pool never queues what the order has not chosen.
/// They start on the pool at the decision, with no worker (``SchedulerAction/startBlocking(_:)``),
/// and their ends come back through ``blockingAttemptEnded(_:outcome:at:)``: a worker is needed
/// only for async commands and for a blocking retry's backoff.
///
/// Order-only edges (`after`): a command whose dependencies have succeeded still waits for each
/// command it runs after that is wanted and has not ended, whatever way it ends; one not wanted
/// when the command comes to it is not waited for. A position's `afterCursor` says how far
/// through that list it has come, so each edge is looked at a bounded number of times.
///
/// Giving way: while the launch has priority work unfinished (a wanted command of raised
/// effective priority, or one a task waits for), an attempt handed out for any other async
/// command that is not a service gives way (``Job/givesWay``): its worker runs it off Swift's
/// cooperative pool.
///
/// Failures: a command that fails or times out after its retries has its transitive dependents
/// skipped (not the commands that only run after it). Under fail-fast, the run stops (ready commands cancelled, attempts in flight
/// cancelled, nothing more starts) as soon as it is known to fail: a required command failed or
/// timed out, or was skipped because an optional one failed.
struct SchedulerStateMachine<Worker, Listener, Waiter, Reader> {
    typealias Actions = SchedulerActions<Worker, Listener, Waiter, Reader>

    private let commands: [AnyStartupCommand]
    private let readyKeys: [ReadyKey]
    private let graph: DependencyGraph
    private let slots: Int
    /// The most blocking commands at once: the blocking pool's threads.
    private let blockingThreads: Int
    private let hasBlocking: Bool
    private let failFast: Bool
    private let hasOnDemand: Bool
    private let hasGates: Bool
    /// How many commands have an effective priority above normal.
    private let raisedCount: Int
    private let serviceEndPolicy: ServiceEndPolicy

    /// Where the run stands.
    private(set) var state = SchedulerState.notStarted
    /// How many times the run has settled.
    private(set) var settlements = 0
    /// Services that signalled ready and have not ended; they may outlive the start-up.
    private(set) var serving = 0
    /// Nobody can request commands or open gates any more: once settled and reported, and
    /// nothing serves, the run is over.
    private var isClosed = false
    /// The run's shutdown has begun: a service's end is no longer reported as its own.
    private(set) var isShuttingDown = false

    /// The timing and progress of every command, by position.
    private(set) var records: [CommandRecord]
    /// The status of every command that ended other than by succeeding.
    private(set) var outcomes: [Int: CommandStatus] = [:]
    /// Whether each command is part of the run: eager, needed, or requested.
    private(set) var wanted: [Bool]
    /// Wanted commands that have not ended.
    private var unfinished = 0
    /// Wanted commands of raised effective priority that have not ended.
    private var raisedUnfinished = 0
    /// Which gates have been opened, by position.
    private var opened: [Bool]
    private var countdown: ReleaseCountdown
    /// Whether any command runs after another (order-only edges).
    private let hasOrderOnly: Bool
    /// For each command held by its order-only edges, the index, in its list of them, of the one
    /// it waits for; -1 until its dependencies have succeeded. Empty without order-only edges.
    private var afterCursor: [Int32]
    /// Ready async commands (and gates' neighbours: every command that is not blocking).
    private var ready = PriorityHeap<ReadyCandidate>()
    /// Ready blocking commands, which also need a thread of the blocking pool.
    private var readyBlocking = PriorityHeap<ReadyCandidate>()
    /// How many pending waits make each command urgent, by position; empty until the first wait
    /// that has to wait, from which on every ready command is marked `.ready` in its record, so a
    /// stale copy in a queue is known.
    private var urgency: [Int32] = []
    /// Commands that a pending wait makes urgent (a nonzero `urgency`).
    private var urgentCount = 0
    private var released: [Int] = []
    /// Workers waiting for a job; only while running (a stop or a settlement sends them away).
    private var parked: [Worker] = []
    /// Retries of blocking commands started with no worker, whose backoff a worker sleeps out
    /// (on the run's clock, as the attempt's) before running them: in flight, waiting for a worker.
    private var backoffRetries: [Job] = []
    private var mailbox: EventMailbox<Listener>
    private var waits = WaitBook<Waiter>()
    private var reportReaders: [Reader] = []
    /// The actions of the input being decided, handed to the shell when it returns.
    private var decided = Actions()
    /// The input settled the run: the owner is told to make the report after the input's other
    /// actions, so the tasks it resumes (waits, the listener) are on their way first.
    private var reportDue = false
    /// The latest time any input came with. Workers read the clock before they take the lock, so
    /// two inputs can arrive out of time order; times are taken as at least this, so recorded
    /// times never go backwards in decision order (a dependent never starts before its
    /// dependency's recorded end, and the run never ends before its last command).
    private var latest = Duration.zero

    /// Prepares a run of `plan`.
    ///
    /// - Parameters:
    ///   - maxConcurrency: The most attempts at once; `nil` for no limit.
    ///   - recordsEvents: Whether events are kept for a listener.
    ///   - opensGates: Whether every gate is open from the start (``StartupOrchestrator/run()``).
    ///   - serviceEndPolicy: Whether a service that ends by itself asks for the shutdown.
    ///   - eventBatchWindow: The least time between two wakes of the listener (``EventMailbox``).
    init(
        plan: StartupPlan, maxConcurrency: Int?, failurePolicy: FailurePolicy, recordsEvents: Bool, opensGates: Bool = false,
        serviceEndPolicy: ServiceEndPolicy = .shutDown, eventBatchWindow: Duration = .zero,
        blockingThreads: Int = StartupOrchestrator.Options.defaultBlockingThreads
    ) {
        commands = plan.storage.commands
        readyKeys = plan.storage.readyKeys
        graph = plan.storage.graph
        slots = maxConcurrency ?? .max
        self.blockingThreads = blockingThreads
        hasBlocking = plan.storage.hasBlocking
        failFast = failurePolicy == .failFast
        hasOnDemand = plan.storage.hasOnDemand
        hasGates = plan.storage.hasGates
        raisedCount = plan.storage.raisedCount
        self.serviceEndPolicy = serviceEndPolicy
        records = Array(repeating: CommandRecord(), count: plan.count)
        wanted = Array(repeating: !hasOnDemand, count: plan.count)
        opened = Array(repeating: opensGates, count: plan.count)
        countdown = ReleaseCountdown(graph: plan.storage.graph, direction: .requiredOrder)
        hasOrderOnly = plan.storage.graph.hasOrderOnly
        afterCursor = hasOrderOnly ? Array(repeating: -1, count: plan.count) : []
        mailbox = EventMailbox(enabled: recordsEvents, window: eventBatchWindow)
    }

    /// The attempts in flight: started and not yet ended (or, for a service, not yet ready),
    /// blocking ones included, and one more while a worker is on its way to start a ready one.
    var attemptsInFlight: Int {
        switch state {
        case .running(let running): running.busy + (running.wakePending ? 1 : 0)
        case .stopping(let stopping): stopping.busy
        case .notStarted, .settled, .finished: 0
        }
    }

    /// The latest settlement's report, once made.
    var report: StartupReport? {
        switch state {
        case .settled(let settlement), .finished(let settlement): settlement.report
        case .notStarted, .running, .stopping: nil
        }
    }

    // MARK: - Inputs

    /// The run begins: the eager commands and what they need are wanted, those without
    /// dependencies become ready, and a worker is asked for. `cancelled`: the run was cancelled
    /// before it began; everything wanted ends cancelled.
    mutating func begin(at reading: Duration, cancelled: Bool) -> Actions {
        let now = advance(to: reading)
        precondition(state == .notStarted, "a run begins once")
        state = .running(.init())
        if mailbox.isEnabled { mailbox.append(.runStarted(commandCount: commands.count)) }
        if hasOnDemand {
            want(commands.indices.filter { commands[$0].options.activation == .eager }, at: now)
        } else {
            unfinished = commands.count
            raisedUnfinished = raisedCount
            for root in countdown.roots { becomeReady(root, at: now) }
        }
        if cancelled { stop(.cancelled, at: now) }
        settleIfDone(at: now)
        wakeWorkerIfNeeded(at: now)
        return takeDecided()
    }

    /// A newly spawned worker comes for its first job.
    mutating func workerArrived(at reading: Duration) -> (WorkerStep, Actions) {
        let now = advance(to: reading)
        let step = nextStep(at: now)
        arrived(at: now)
        return (step, takeDecided())
    }

    /// A parked worker, handed a job by a ``SchedulerAction/resume(_:_:)``, has come.
    mutating func wokenWorkerArrived(at reading: Duration) -> Actions {
        let now = advance(to: reading)
        arrived(at: now)
        return takeDecided()
    }

    /// A worker with nothing to do parks: it takes a job if one is ready now (`step` is
    /// `.run`), exits if nothing more will start (`.exit`), else it is stored (`nil`) until an
    /// action resumes it.
    mutating func park(_ worker: Worker, at reading: Duration) -> (step: WorkerStep?, actions: Actions) {
        let now = advance(to: reading)
        switch nextStep(at: now) {
        case .park:
            parked.append(worker)
            return (nil, takeDecided())
        case let step:
            wakeWorkerIfNeeded(at: now)
            return (step, takeDecided())
        }
    }

    /// An attempt ended at `now`: records it, retries it, releases or skips dependents. Returns
    /// the worker's next step: the retry, the best ready command, park, or exit.
    mutating func attemptEnded(_ job: Job, outcome: AttemptOutcome, at reading: Duration) -> (WorkerStep, Actions) {
        let now = advance(to: reading)
        if let retry = recordEnd(of: job, outcome: outcome, at: now) { return (.run(retry), takeDecided()) }
        settleIfDone(at: now)
        let step = nextStep(at: now)
        wakeWorkerIfNeeded(at: now)
        return (step, takeDecided())
    }

    /// An attempt started with no worker (``SchedulerAction/startBlocking(_:)``) ended at `now`:
    /// as ``attemptEnded(_:outcome:at:)``, but the retry is started on the pool at once, or, after
    /// a backoff, handed to a worker to sleep it out.
    mutating func blockingAttemptEnded(_ job: Job, outcome: AttemptOutcome, at reading: Duration) -> Actions {
        let now = advance(to: reading)
        if let retry = recordEnd(of: job, outcome: outcome, at: now) {
            if retry.delay == .zero { decided.append(.startBlocking(retry)) } else { backoffRetries.append(retry) }
        } else {
            settleIfDone(at: now)
        }
        wakeWorkerIfNeeded(at: now)
        return takeDecided()
    }

    /// Records an attempt's end: its retry, started, if it gets one, else the command's end, which
    /// releases or skips its dependents.
    private mutating func recordEnd(of job: Job, outcome: AttemptOutcome, at now: Duration) -> Job? {
        let position = job.position
        precondition(records[position].progress == .running, "an attempt ends once")
        records[position].end = now.clampedNanoseconds
        let isRunning = attemptLeft(position)
        switch outcome {
        case .succeeded:
            succeed(position, at: now)
        case .threw(let error):
            if !isRunning {
                end(position, as: .cancelled, at: now)
            } else if job.attempt <= maxRetries(of: position), !(error is any NonRetryableError) {
                return retry(job, after: .failed(error), at: now)
            } else {
                fail(position, as: .failed(error), at: now)
            }
        case .timedOut(let timeout, let abandoned):
            if abandoned { records[position].abandoned = true }
            if isRunning, job.attempt <= maxRetries(of: position) {
                return retry(job, after: .timedOut(after: timeout), at: now)
            }
            fail(position, as: .timedOut(after: timeout), at: now)
        }
        return nil
    }

    /// The service of `job` signalled ready: for its dependents it has succeeded (its duration is
    /// its time to ready), its slot is free, and it is serving until it ends.
    mutating func serviceReady(_ job: Job, at reading: Duration) -> Actions {
        let now = advance(to: reading)
        precondition(records[job.position].progress == .running, "a service is ready once per attempt")
        attemptLeft(job.position)
        serving += 1
        succeed(job.position, at: now)
        settleIfDone(at: now)
        wakeWorkerIfNeeded(at: now)
        return takeDecided()
    }

    /// A service that was ready has ended: stopped by the shutdown, or by itself (`endedByItself`),
    /// which is reported and, unless the shutdown has begun, asks for it as the policy says.
    /// Returns the worker's next step.
    mutating func serviceEnded(_ job: Job, endedByItself: ServiceEndedError?, at reading: Duration) -> (WorkerStep, Actions) {
        let now = advance(to: reading)
        precondition(serving > 0, "a service ends once")
        serving -= 1
        if let endedByItself, !isShuttingDown {
            if mailbox.isEnabled { mailbox.append(.serviceEnded(endedByItself, at: now)) }
            if serviceEndPolicy == .shutDown { decided.append(.shutDown) }
        }
        finishIfOver()
        let step = nextStep(at: now)
        wakeWorkerIfNeeded(at: now)
        return (step, takeDecided())
    }

    /// A ready service ended by itself and will be restarted (``ServiceEndedError/restart``):
    /// for the run it is still serving; the end is reported unless the shutdown has begun.
    mutating func serviceRestarting(_ ended: ServiceEndedError, at reading: Duration) -> Actions {
        let now = advance(to: reading)
        if !isShuttingDown, mailbox.isEnabled { mailbox.append(.serviceEnded(ended, at: now)) }
        return takeDecided()
    }

    /// The shutdown begins (once; later calls return `false`): a start-up still going is
    /// cancelled, and later requests end cancelled. The services are stopped by the shell.
    mutating func beginShutdown(at reading: Duration) -> (isFirst: Bool, actions: Actions) {
        let now = advance(to: reading)
        guard !isShuttingDown else { return (false, Actions()) }
        isShuttingDown = true
        cancelRun(at: now)
        return (true, takeDecided())
    }

    /// Commands are requested (``StartupRun/output(of:)``, ``StartupRun/wait(for:timeout:)``):
    /// they and what they need become wanted and start when they can.
    mutating func request(_ positions: [Int], at reading: Duration) -> Actions {
        let now = advance(to: reading)
        want(positions, at: now)
        return takeDecided()
    }

    /// The gate at `position` is opened: it succeeds now if its dependencies have, else as soon
    /// as they do. Opening it again does nothing.
    mutating func open(_ position: Int, at reading: Duration) -> Actions {
        let now = advance(to: reading)
        precondition(commands[position].isGate, "only a gate opens")
        guard !opened[position] else { return takeDecided() }
        opened[position] = true
        if records[position].progress == .gateClosed, case .running = state {
            succeed(position, at: now)
            settleIfDone(at: now)
            wakeWorkerIfNeeded(at: now)
        }
        return takeDecided()
    }

    /// A wait's id, reserved before its waiter comes, so a timeout or a cancellation that comes
    /// first is not lost.
    mutating func reserveWait() -> Int {
        waits.reserve()
    }

    /// A task waits (wait `id`) for the commands at `positions`, requesting them. Returns how the
    /// wait ends if that is known now; else the waiter is kept until an action resolves it.
    mutating func wait(_ id: Int, for positions: [Int], waiter: Waiter, at reading: Duration) -> (WaitOutcome?, Actions) {
        let now = advance(to: reading)
        want(positions, at: now)
        var unfinished: [Int] = []
        for position in positions where records[position].progress != .done {
            unfinished.append(position)
        }
        let failure = positions.first { outcomes[$0]?.isFailure ?? false }
        let outcome: WaitOutcome?
        if let failure {
            outcome = .didNotSucceed(commands[failure].id, outcomes[failure]!)
            waits.discard(id)
        } else if unfinished.isEmpty {
            outcome = .succeeded
            waits.discard(id)
        } else {
            switch waits.add(waiter, id: id, awaiting: positions, unfinished: unfinished) {
            case nil:
                outcome = nil
                waits.setBoosted(raiseUrgency(of: unfinished), for: id)
            case .cancelled?: outcome = .cancelled
            case .timedOut?: outcome = .timedOut(holdUps(of: positions, at: now))
            }
        }
        return (outcome, takeDecided())
    }

    /// Wait `id` ends early: its time is up, or its task was cancelled.
    mutating func endWait(_ id: Int, as preemption: WaitBook<Waiter>.Preemption, at reading: Duration) -> Actions {
        let now = advance(to: reading)
        if let (waiter, awaited, boosted) = waits.preempt(id, as: preemption) {
            lowerUrgency(of: boosted)
            switch preemption {
            case .cancelled: decided.append(.resolve(waiter, .cancelled))
            case .timedOut: decided.append(.resolve(waiter, .timedOut(holdUps(of: awaited, at: now))))
            }
        }
        return takeDecided()
    }

    /// A task asks for the report: it gets the latest settlement's if the run is settled and the
    /// report made, else the waiter is kept until the owner makes it.
    mutating func waitForReport(_ reader: Reader) -> StartupReport? {
        if let report { return report }
        reportReaders.append(reader)
        return nil
    }

    /// The owner made the report of settlement `settlement`. Kept and handed to the tasks asking
    /// for it unless the run has moved on since (they then get the next one); the first one is
    /// the observers' last event of the start-up (``StartupEvent/runFinished(_:)``).
    mutating func reportMade(_ made: StartupReport, settlement: Int) -> Actions {
        guard case .settled(var settled) = state, settled.number == settlement else { return takeDecided() }
        if mailbox.isEnabled { mailbox.appendRunFinishedOnce(made) }
        settled.report = made
        state = .settled(settled)
        if !reportReaders.isEmpty {
            decided.append(.handReport(reportReaders, made))
            reportReaders.removeAll()
        }
        finishIfOver()
        return takeDecided()
    }

    /// Nobody can request commands or open gates any more (the run's handle is gone, or it is
    /// ``StartupOrchestrator/run()``'s): once settled and reported, the run is over. A gate not
    /// yet opened never will be, so the run is then cancelled rather than left waiting forever.
    mutating func close(at reading: Duration) -> Actions {
        let now = advance(to: reading)
        isClosed = true
        if state != .notStarted, commands.indices.contains(where: { commands[$0].isGate && !opened[$0] && records[$0].progress != .done }) {
            cancelRun(at: now)
        }
        finishIfOver()
        return takeDecided()
    }

    /// The run is cancelled: nothing more starts, ready commands end cancelled, the attempts in
    /// flight are cancelled and left to end, and later requests end cancelled.
    mutating func cancel(at reading: Duration) -> Actions {
        let now = advance(to: reading)
        precondition(state != .notStarted, "cancel after begin")
        cancelRun(at: now)
        return takeDecided()
    }

    /// The delivery task comes for events.
    mutating func takeEvents(_ listener: Listener) -> EventMailbox<Listener>.Take {
        mailbox.take(listener)
    }

    /// The event batch window is over: the events held back go to the listener.
    mutating func flushEvents(at reading: Duration) -> Actions {
        let now = advance(to: reading)
        if let (listener, events) = mailbox.flush(at: now) { decided.append(.deliver(listener, events)) }
        return takeDecided()
    }

    // MARK: - Decisions

    /// An input's time, made to move forward: the later of its reading and every earlier input's.
    private mutating func advance(to reading: Duration) -> Duration {
        if reading > latest { latest = reading }
        return latest
    }

    /// Hands the input's actions to the shell: those decided, then the events for a waiting
    /// listener, then the owner's report if the input settled the run.
    private mutating func takeDecided() -> Actions {
        if mailbox.isEnabled {
            switch mailbox.handOver(at: latest) {
            case .none: break
            case .deliver(let listener, let events): decided.append(.deliver(listener, events))
            case .flush(let due): decided.append(.flushEvents(at: due))
            }
        }
        if reportDue {
            reportDue = false
            decided.append(.makeReport)
        }
        var taken = Actions()
        swap(&taken, &decided)
        return taken
    }

    private mutating func arrived(at now: Duration) {
        if case .running(var running) = state, running.wakePending {
            running.wakePending = false
            state = .running(running)
        }
        wakeWorkerIfNeeded(at: now)
    }

    /// A free worker's next step: the best ready command if a slot is free, else park, or exit
    /// once nothing more will start.
    private mutating func nextStep(at now: Duration) -> WorkerStep {
        switch state {
        case .running:
            startReadyBlocking(at: now)
            guard let job = takeWorkerJob(at: now) else { return .park }
            return .run(job)
        case .stopping, .settled, .finished:
            return .exit
        case .notStarted:
            preconditionFailure("a worker before the run began")
        }
    }

    /// Hands `job` to a worker: one more attempt in flight.
    ///
    /// - Precondition: The run is running.
    private mutating func start(_ job: Job, at now: Duration) -> Job {
        guard case .running(var running) = state else { preconditionFailure("an attempt starts only while running") }
        var job = job
        if raisedUnfinished > 0 || urgentCount > 0 { job.givesWay = mayGiveWay(job.position) && job.priority <= 0 }
        running.busy += 1
        if hasBlocking, commands[job.position].isBlocking { running.blockingBusy += 1 }
        state = .running(running)
        records[job.position].attempts = Int32(clamping: job.attempt)
        records[job.position].progress = .running
        if job.attempt == 1 { records[job.position].start = now.clampedNanoseconds }
        if mailbox.isEnabled { mailbox.append(.commandStarted(commands[job.position].id, attempt: job.attempt, at: now)) }
        return job
    }

    /// Whether an attempt of the command at `position` gives way while priority work is
    /// unfinished: it is not urgent, and is an async command that is not a service (a blocking
    /// one has its own pool; a service outlives the launch, and would keep a thread of the
    /// ``BackgroundExecutor``).
    private func mayGiveWay(_ position: Int) -> Bool {
        guard urgency.isEmpty || urgency[position] == 0 else { return false }
        return !commands[position].isBlocking && commands[position].serve == nil
    }

    /// The attempt at `position` is no longer in flight (it ended, or its service is ready).
    /// Returns whether the run is running (else it is stopping).
    @discardableResult
    private mutating func attemptLeft(_ position: Int) -> Bool {
        switch state {
        case .running(var running):
            running.busy -= 1
            if hasBlocking, commands[position].isBlocking { running.blockingBusy -= 1 }
            state = .running(running)
            return true
        case .stopping(var stopping):
            stopping.busy -= 1
            state = .stopping(stopping)
            return false
        case .notStarted, .settled, .finished:
            preconditionFailure("an attempt in flight while nothing runs")
        }
    }

    /// Starts the ready blocking commands a free slot goes to (``startReadyBlocking(at:)``), and
    /// keeps one more worker coming while async commands wait for a free slot's worker (or a
    /// blocking retry for its backoff): hands a job to a parked one, or asks for a new one. Only
    /// one is on its way at a time; when it comes it does the same, so workers grow one by one
    /// while commands are ready.
    private mutating func wakeWorkerIfNeeded(at now: Duration) {
        startReadyBlocking(at: now)
        guard case .running(var running) = state, !running.wakePending, hasWorkerJob(running) else { return }
        running.wakePending = true
        state = .running(running)
        if !parked.isEmpty, let job = takeWorkerJob(at: now) {
            let worker = parked.removeLast()
            decided.append(.resume(worker, .run(job)))
            // The best async command has gone: a blocking one may now come first.
            startReadyBlocking(at: now)
        } else {
            decided.append(.spawnWorker)
        }
    }

    /// Makes the commands at `positions` and everything they need wanted; those whose
    /// dependencies have succeeded become ready. A settled run runs again; a stopped or cancelled
    /// one ends them cancelled.
    private mutating func want(_ positions: [Int], at now: Duration) {
        var stack = positions.filter { !wanted[$0] }
        guard !stack.isEmpty else { return }
        var newlyWanted: [Int] = []
        while let position = stack.popLast() {
            guard !wanted[position] else { continue }
            wanted[position] = true
            newlyWanted.append(position)
            // A command that ended (skipped while nobody wanted it) needs nothing started.
            guard records[position].progress != .done else { continue }
            for dependency in graph.dependencies(of: position) where !wanted[dependency] { stack.append(dependency) }
        }
        // Skipped while nobody wanted them, some have ended already.
        let toRun = newlyWanted.filter { records[$0].progress != .done }
        guard !toRun.isEmpty else { return }
        unfinished += toRun.count
        if raisedCount > 0 { raisedUnfinished += toRun.count { readyKeys[$0].priority > 0 } }
        switch state {
        case .running:
            break
        case .settled(let settled) where settled.acceptsRequests:
            state = .running(.init())
        case .settled(let settled):
            // Ended cancelled now, which is a new settlement with a new report.
            for position in toRun { end(position, as: .cancelled, at: now) }
            settle(Settlement(reason: settled.reason, at: settled.at, number: settlements + 1, cancelledSince: settled.cancelledSince))
            return
        case .stopping:
            // Ended cancelled with the rest once the attempts in flight have ended.
            return
        case .notStarted, .finished:
            preconditionFailure("a request before the run began or after it was closed")
        }
        for position in toRun where records[position].progress == .waiting && countdown.isReleased(position) {
            becomeReady(position, at: now)
        }
        drainReleased(at: now)
        settleIfDone(at: now)
        wakeWorkerIfNeeded(at: now)
    }

    /// A wanted command whose dependencies have succeeded: ready for a slot, or, for a gate,
    /// started and waiting to be opened (ending at once if it was).
    private mutating func becomeReady(_ position: Int, at now: Duration) {
        if hasOrderOnly, !passesOrder(position) { return }
        guard hasGates, commands[position].isGate else {
            // Marked only where a request could insert it twice, or a wait queue it again: the
            // mark is one more write to the record on every command's path.
            if marksReady { records[position].progress = .ready }
            enqueue(position, urgent: !urgency.isEmpty && urgency[position] > 0)
            return
        }
        records[position].start = now.clampedNanoseconds
        records[position].attempts = 1
        records[position].progress = .gateClosed
        if mailbox.isEnabled { mailbox.append(.commandStarted(commands[position].id, attempt: 1, at: now)) }
        if opened[position] { succeed(position, at: now) }
    }

    /// Whether every command that `position` runs after, and that is wanted, has ended; if not,
    /// `position` is held until the one it stopped at ends (``releaseOrderOnlySuccessors(of:)``).
    ///
    /// - Complexity: O(order-only edges of `position` passed now), each passed once in a run.
    private mutating func passesOrder(_ position: Int) -> Bool {
        let predecessors = graph.orderOnlyPredecessors(of: position)
        guard !predecessors.isEmpty else { return true }
        var cursor = predecessors.startIndex + max(0, Int(afterCursor[position]))
        while cursor < predecessors.endIndex {
            let predecessor = predecessors[cursor]
            if wanted[predecessor], records[predecessor].progress != .done { break }
            cursor += 1
        }
        afterCursor[position] = Int32(cursor - predecessors.startIndex)
        return cursor == predecessors.endIndex
    }

    /// `position` has ended, however: the commands held waiting for it, while running, are
    /// released to look at their next order-only edge.
    private mutating func releaseOrderOnlySuccessors(of position: Int) {
        guard case .running = state else { return }
        for successor in graph.orderOnlySuccessors(of: position) {
            let cursor = Int(afterCursor[successor])
            guard cursor >= 0, records[successor].progress == .waiting else { continue }
            let predecessors = graph.orderOnlyPredecessors(of: successor)
            if cursor < predecessors.count, predecessors[predecessors.startIndex + cursor] == position {
                released.append(successor)
            }
        }
    }

    private mutating func succeed(_ position: Int, at now: Duration) {
        records[position].end = now.clampedNanoseconds
        end(position, as: .succeeded, at: now)
        guard case .running = state else { return }
        countdown.finish(position, into: &released)
        drainReleased(at: now)
    }

    /// Readies the wanted commands just released. Popped, so the buffer empties as it goes and
    /// keeps its capacity; the heap's order does not depend on the order of inserts. A gate
    /// opened already succeeds here and releases its own dependents into the same buffer.
    private mutating func drainReleased(at now: Duration) {
        guard case .running = state else {
            released.removeAll(keepingCapacity: true)
            return
        }
        while let dependent = released.popLast() {
            if wanted[dependent] { becomeReady(dependent, at: now) }
        }
    }

    /// Read only when an attempt failed: a successful end touches no more of the command.
    private func maxRetries(of position: Int) -> Int {
        commands[position].options.retry.maxRetries
    }

    private mutating func retry(_ job: Job, after outcome: CommandStatus, at now: Duration) -> Job {
        let command = commands[job.position]
        let delay = command.options.retry.delay(beforeAttempt: job.attempt + 1)
        if mailbox.isEnabled {
            mailbox.append(.commandRetrying(command.id, failedAttempt: job.attempt, outcome: outcome, delay: delay, at: now))
        }
        return start(Job(position: job.position, attempt: job.attempt + 1, delay: delay, priority: job.priority), at: now)
    }

    private mutating func fail(_ position: Int, as status: CommandStatus, at now: Duration) {
        end(position, as: status, at: now)
        let skippedRequired = skipDependents(of: position, at: now)
        if failFast, !commands[position].options.isOptional || skippedRequired {
            stop(.failFast, at: now)
        }
        // What ran after the failed and the skipped commands goes on.
        if hasOrderOnly { drainReleased(at: now) }
    }

    /// Skips every transitive dependent that has not started, wanted or not (one requested
    /// later is skipped already), iteratively. Returns whether a wanted required command was
    /// among them.
    private mutating func skipDependents(of failed: Int, at now: Duration) -> Bool {
        let failedID = commands[failed].id
        var skippedRequired = false
        var stack = graph.dependents(of: failed).map { (command: $0, via: failed) }
        while let (command, via) = stack.popLast() {
            guard records[command].progress == .waiting else { continue }
            end(command, as: .skipped(SkipReason(failedCommand: failedID, dependency: commands[via].id)), at: now)
            skippedRequired = skippedRequired || (wanted[command] && !commands[command].options.isOptional)
            stack.append(contentsOf: graph.dependents(of: command).map { ($0, command) })
        }
        return skippedRequired
    }

    /// Cancels the run: a running one stops (and settles if nothing is in flight); a settled one
    /// ends what is requested later cancelled. A stopping or finished run is left as it is.
    private mutating func cancelRun(at now: Duration) {
        switch state {
        case .running:
            stop(.cancelled, at: now)
            settleIfDone(at: now)
        case .settled(var settled):
            settled.cancelledSince = true
            state = .settled(settled)
        case .notStarted, .stopping, .finished:
            break
        }
    }

    /// Stops starting commands: ready ones end cancelled, parked workers exit, and the owner
    /// cancels the attempts in flight.
    private mutating func stop(_ reason: StopReason, at now: Duration) {
        guard case .running(let running) = state else { return }
        state = .stopping(.init(reason: reason, busy: running.busy))
        while let queued = ready.popMin() ?? readyBlocking.popMin() {
            if isQueued(queued.position) { end(queued.position, as: .cancelled, at: now) }
        }
        // Their backoff, which a worker would have slept, ends cancelled with the stop.
        for retry in backoffRetries {
            records[retry.position].end = now.clampedNanoseconds
            attemptLeft(retry.position)
            end(retry.position, as: .cancelled, at: now)
        }
        backoffRetries.removeAll()
        sendParkedWorkersAway()
        decided.append(.cancelWorkers)
    }

    private mutating func end(_ position: Int, as status: CommandStatus, at now: Duration) {
        records[position].progress = .done
        if hasOrderOnly { releaseOrderOnlySuccessors(of: position) }
        if !status.isSuccess { outcomes[position] = status }
        // Skipped while not wanted: no event, and its status is reported only if it is wanted.
        guard wanted[position] else { return }
        unfinished -= 1
        if raisedCount > 0, readyKeys[position].priority > 0 { raisedUnfinished -= 1 }
        if !waits.isEmpty {
            let outcome = status.isSuccess ? WaitOutcome.succeeded : .didNotSucceed(commands[position].id, status)
            for (waiter, boosted) in waits.commandEnded(position, succeeded: status.isSuccess) {
                lowerUrgency(of: boosted)
                decided.append(.resolve(waiter, outcome))
            }
        }
        guard mailbox.isEnabled else { return }
        let record = records[position]
        mailbox.append(
            .commandFinished(
                commands[position].id, status: status, attempts: Int(record.attempts),
                startOffset: record.startOffset, at: now))
    }

    /// Settles the run when nothing runs and nothing wanted is left: under a stop, what never
    /// ran ends cancelled.
    private mutating func settleIfDone(at now: Duration) {
        switch state {
        case .running:
            guard unfinished == 0 else { return }
            settle(Settlement(reason: nil, at: now.clampedNanoseconds, number: settlements + 1))
        case .stopping(let stopping):
            guard stopping.busy == 0 else { return }
            for position in records.indices where wanted[position] && records[position].progress != .done {
                end(position, as: .cancelled, at: now)
            }
            settle(Settlement(reason: stopping.reason, at: now.clampedNanoseconds, number: settlements + 1))
        case .notStarted, .settled, .finished:
            return
        }
    }

    /// The run settles: parked workers exit, and the owner is told to make the report.
    private mutating func settle(_ settlement: Settlement) {
        state = .settled(settlement)
        settlements = settlement.number
        sendParkedWorkersAway()
        reportDue = true
    }

    private mutating func sendParkedWorkersAway() {
        for worker in parked { decided.append(.resume(worker, .exit)) }
        parked.removeAll()
    }

    /// The run is over once it is settled, reported and closed, and nothing serves: the last
    /// events go to the listener, which then ends, and the owner's work is done.
    private mutating func finishIfOver() {
        guard isClosed, serving == 0, case .settled(let settled) = state, settled.report != nil else { return }
        state = .finished(settled)
        if let (listener, events) = mailbox.close() { decided.append(.deliver(listener, events)) }
        decided.append(.finish)
    }

    private typealias Settlement = SchedulerState.Settlement

    // MARK: - The ready queues

    /// Whether ready commands are marked `.ready` in their records.
    private var marksReady: Bool { hasOnDemand || !urgency.isEmpty }

    /// Whether the command at `position` is still waiting in a queue for a slot.
    private func isQueued(_ position: Int) -> Bool {
        !marksReady || records[position].progress == .ready
    }

    /// Queues a ready command: in the blocking queue if it blocks, and urgent too if a task waits
    /// for it.
    private mutating func enqueue(_ position: Int, urgent: Bool) {
        insert(ReadyCandidate(key: readyKeys[position], isUrgent: false))
        if urgent { insert(ReadyCandidate(key: readyKeys[position], isUrgent: true)) }
    }

    private mutating func insert(_ candidate: ReadyCandidate) {
        if hasBlocking, commands[candidate.position].isBlocking {
            readyBlocking.insert(candidate)
        } else {
            ready.insert(candidate)
        }
    }

    /// Drops the copies at the top of the async (or the blocking) queue that are no longer true: the
    /// command started, or, for an urgent copy, no wait needs it any more (its plain copy is still
    /// queued). Mutating, on the queue in place: a method given the queue `inout` would copy the
    /// whole machine to read it.
    private mutating func dropStale(blocking: Bool) {
        guard !urgency.isEmpty else { return }
        if blocking {
            while let top = readyBlocking.min, isStale(top) { _ = readyBlocking.popMin() }
        } else {
            while let top = ready.min, isStale(top) { _ = ready.popMin() }
        }
    }

    /// Whether a queued copy is no longer true (see ``dropStale(blocking:)``).
    private func isStale(_ candidate: ReadyCandidate) -> Bool {
        !isQueued(candidate.position) || (candidate.isUrgent && urgency[candidate.position] == 0)
    }

    /// Whether a worker has a job to take now: a blocking retry's backoff, or an async command
    /// while a slot is free.
    private mutating func hasWorkerJob(_ running: SchedulerState.Running) -> Bool {
        guard backoffRetries.isEmpty else { return true }
        guard running.busy < slots else { return false }
        dropStale(blocking: false)
        return !ready.isEmpty
    }

    /// Takes a worker's job out of its queue, started: a blocking retry's backoff (in flight
    /// already), else the best ready async command while a slot is free.
    ///
    /// - Precondition: The run is running.
    private mutating func takeWorkerJob(at now: Duration) -> Job? {
        if let retry = backoffRetries.popLast() { return retry }
        guard case .running(let running) = state, running.busy < slots else { return nil }
        dropStale(blocking: false)
        guard let key = ready.popMin()?.key else { return nil }
        return start(Job(position: key.position, attempt: 1, delay: .zero, priority: key.priority), at: now)
    }

    /// Starts on the blocking pool, with no worker, each ready blocking command a free slot goes
    /// to now: while the pool has a thread and a slot is free, the best blocking command starts
    /// unless the best async command comes first and the async commands ready could take every
    /// free slot (they are the better claims on those slots, and a worker is on its way for them).
    ///
    /// - Complexity: O(log n) per command started.
    private mutating func startReadyBlocking(at now: Duration) {
        guard hasBlocking else { return }
        while case .running(let running) = state, running.busy < slots, running.blockingBusy < blockingThreads {
            dropStale(blocking: true)
            guard let blocking = readyBlocking.min else { return }
            dropStale(blocking: false)
            if let async = ready.min, async < blocking, slots - running.busy <= ready.count { return }
            _ = readyBlocking.popMin()
            let key = blocking.key
            decided.append(.startBlocking(start(Job(position: key.position, attempt: 1, delay: .zero, priority: key.priority), at: now)))
        }
    }

    /// A task now waits for `awaited` (unfinished): they and their unfinished ancestors become
    /// urgent, and those queued get an urgent copy. Returns the positions raised, for
    /// ``lowerUrgency(of:)`` when the wait ends.
    ///
    /// - Complexity: O(the unfinished ancestors of `awaited` and their edges).
    private mutating func raiseUrgency(of awaited: [Int]) -> [Int] {
        if urgency.isEmpty {
            urgency = Array(repeating: 0, count: commands.count)
            // From now on ready commands are marked; those queued already are marked here.
            for queued in ready.elements + readyBlocking.elements { records[queued.position].progress = .ready }
        }
        var raised: [Int] = []
        var seen: Set<Int> = []
        var stack = awaited
        while let position = stack.popLast() {
            guard records[position].progress != .done, seen.insert(position).inserted else { continue }
            raised.append(position)
            urgency[position] += 1
            if urgency[position] == 1 { urgentCount += 1 }
            if urgency[position] == 1, records[position].progress == .ready {
                insert(ReadyCandidate(key: readyKeys[position], isUrgent: true))
            }
            stack.append(contentsOf: graph.predecessors(of: position))
        }
        return raised
    }

    /// A wait ended: what it raised returns to its key's order (once no other wait needs it).
    private mutating func lowerUrgency(of raised: [Int]) {
        for position in raised {
            urgency[position] -= 1
            if urgency[position] == 0 { urgentCount -= 1 }
        }
    }

    /// What holds up each unfinished command of `awaited`, for a wait that timed out.
    private func holdUps(of awaited: [Int], at now: Duration) -> [StartupWaitError.HoldUp] {
        HoldUpFinder(commands: commands, graph: graph, records: records, wanted: wanted, now: now).holdUps(of: awaited)
    }
}

extension SchedulerStateMachine: Sendable where Worker: Sendable, Listener: Sendable, Waiter: Sendable, Reader: Sendable {}
