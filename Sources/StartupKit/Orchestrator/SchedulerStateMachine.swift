/// The scheduling decisions of one run, as a plain value: dependency counts, the ready queue,
/// what happened to each command, the parked workers and the run's phase.
///
/// Every method is an input (the run begins, a worker comes, an attempt ends at a time, the run
/// is cancelled, ...) and returns the ``SchedulerActions`` to carry out. It never reads a clock,
/// resumes a continuation, calls an observer or does I/O: the times come with the inputs, and
/// `Worker` and `Listener` are opaque tokens (continuations in ``RunScheduler``, numbers in
/// tests) that only the actions hand back. So it can be driven input by input in tests, and its
/// shell holds the lock only while it decides.
///
/// Failures: a command that fails or times out after its retries has its transitive dependents
/// skipped. Under fail-fast, the run stops (ready commands cancelled, attempts in flight
/// cancelled, nothing more starts) as soon as it is known to fail: a required command failed or
/// timed out, or was skipped because an optional one failed.
struct SchedulerStateMachine<Worker, Listener> {
    /// Where the run stands.
    enum Phase: Sendable, Hashable {
        /// ``begin(at:cancelled:)`` has not been called.
        case notStarted
        /// Commands start as they become ready. `wakePending`: a worker has been woken or asked
        /// for and has not come yet, so no second one is needed.
        case running(wakePending: Bool)
        /// Nothing more starts; the attempts in flight are ending.
        case stopping(StopReason)
        /// Every command has ended; `at` is the time of the last input, in nanoseconds.
        case ended(StopReason?, at: Int64)
    }

    private let commands: [AnyStartupCommand]
    private let readyKeys: [ReadyKey]
    private let graph: DependencyGraph
    private let slots: Int
    private let failFast: Bool

    /// Where the run stands.
    private(set) var phase = Phase.notStarted
    /// The timing and progress of every command, by position.
    private(set) var records: [CommandRecord]
    /// The status of every command that ended other than by succeeding.
    private(set) var outcomes: [Int: CommandStatus] = [:]
    /// Attempts handed to workers and not yet ended (retries waiting for their delay included).
    private(set) var busy = 0
    private var unfinished: Int
    private var countdown: ReleaseCountdown
    private var ready = PriorityHeap<ReadyKey>()
    private var released: [Int] = []
    private var parked: [Worker] = []
    private var mailbox: EventMailbox<Listener>
    /// The latest time any input came with. Workers read the clock before they take the lock, so
    /// two inputs can arrive out of time order; times are taken as at least this, so recorded
    /// times never go backwards in decision order (a dependent never starts before its
    /// dependency's recorded end, and the run never ends before its last command).
    private var latest = Duration.zero

    /// Prepares a run of `plan`.
    ///
    /// - Parameters:
    ///   - maxConcurrency: The most attempts at once; `nil` for no limit.
    ///   - recordsEvents: Whether events are kept for a listener (the run has observers).
    init(plan: StartupPlan, maxConcurrency: Int?, failurePolicy: FailurePolicy, recordsEvents: Bool) {
        commands = plan.storage.commands
        readyKeys = plan.storage.readyKeys
        graph = plan.storage.graph
        slots = maxConcurrency ?? .max
        failFast = failurePolicy == .failFast
        records = Array(repeating: CommandRecord(), count: plan.count)
        unfinished = plan.count
        countdown = ReleaseCountdown(graph: plan.storage.graph, direction: .dependencyOrder)
        mailbox = EventMailbox(enabled: recordsEvents)
    }

    // MARK: - Inputs

    /// The run begins: the commands without dependencies become ready and a worker is asked for.
    /// `cancelled`: the run was cancelled before it began; everything ends cancelled.
    mutating func begin(at reading: Duration, cancelled: Bool) -> SchedulerActions<Worker, Listener> {
        let now = advance(to: reading)
        precondition(phase == .notStarted, "a run begins once")
        var actions = SchedulerActions<Worker, Listener>()
        phase = .running(wakePending: false)
        if mailbox.isEnabled { mailbox.append(.runStarted(commandCount: commands.count)) }
        for root in countdown.roots { ready.insert(readyKeys[root]) }
        if cancelled { stop(.cancelled, at: now, &actions) }
        endIfDone(at: now, &actions)
        wakeWorkerIfNeeded(at: now, &actions)
        return finishing(actions)
    }

    /// A newly spawned worker comes for its first job.
    mutating func workerArrived(at reading: Duration) -> (WorkerStep, SchedulerActions<Worker, Listener>) {
        let now = advance(to: reading)
        var actions = SchedulerActions<Worker, Listener>()
        let step = nextStep(at: now)
        arrived(at: now, &actions)
        return (step, finishing(actions))
    }

    /// A parked worker, handed a job by ``SchedulerActions/resume``, has come.
    mutating func wokenWorkerArrived(at reading: Duration) -> SchedulerActions<Worker, Listener> {
        let now = advance(to: reading)
        var actions = SchedulerActions<Worker, Listener>()
        arrived(at: now, &actions)
        return finishing(actions)
    }

    /// A worker with nothing to do parks: it takes a job if one is ready now (`step` is
    /// `.run`), exits if the run is over (`.exit`), else it is stored (`nil`) until an action
    /// resumes it.
    mutating func park(_ worker: Worker, at reading: Duration) -> (step: WorkerStep?, actions: SchedulerActions<Worker, Listener>) {
        let now = advance(to: reading)
        var actions = SchedulerActions<Worker, Listener>()
        switch nextStep(at: now) {
        case .park:
            parked.append(worker)
            return (nil, actions)
        case let step:
            wakeWorkerIfNeeded(at: now, &actions)
            return (step, finishing(actions))
        }
    }

    /// An attempt ended at `now`: records it, retries it, releases or skips dependents. Returns
    /// the worker's next step: the retry, the best ready command, park, or exit.
    mutating func attemptEnded(_ job: Job, outcome: AttemptOutcome, at reading: Duration) -> (WorkerStep, SchedulerActions<Worker, Listener>) {
        let now = advance(to: reading)
        precondition(busy > 0 && records[job.position].progress == .running, "an attempt ends once")
        var actions = SchedulerActions<Worker, Listener>()
        let position = job.position
        records[position].end = now.clampedNanoseconds
        busy -= 1
        switch outcome {
        case .succeeded:
            end(position, as: .succeeded, at: now)
            if case .running = phase { release(dependentsOf: position) }
        case .threw(let error):
            if case .stopping = phase {
                end(position, as: .cancelled, at: now)
            } else if job.attempt <= maxRetries(of: position) {
                return (.run(retry(job, after: .failed(error), at: now)), finishing(actions))
            } else {
                fail(position, as: .failed(error), at: now, &actions)
            }
        case .timedOut(let timeout):
            if case .running = phase, job.attempt <= maxRetries(of: position) {
                return (.run(retry(job, after: .timedOut(after: timeout), at: now)), finishing(actions))
            }
            fail(position, as: .timedOut(after: timeout), at: now, &actions)
        }
        endIfDone(at: now, &actions)
        let step = nextStep(at: now)
        wakeWorkerIfNeeded(at: now, &actions)
        return (step, finishing(actions))
    }

    /// The run is cancelled: nothing more starts, ready commands end cancelled, the attempts in
    /// flight are left to end (their tasks are cancelled by the shell's owner).
    mutating func cancel(at reading: Duration) -> SchedulerActions<Worker, Listener> {
        let now = advance(to: reading)
        precondition(phase != .notStarted, "cancel after begin")
        var actions = SchedulerActions<Worker, Listener>()
        stop(.cancelled, at: now, &actions)
        endIfDone(at: now, &actions)
        return finishing(actions)
    }

    /// The delivery task comes for events.
    mutating func takeEvents(_ listener: Listener) -> EventMailbox<Listener>.Take {
        mailbox.take(listener)
    }

    /// The report is made: `event` is the last one, and the listener ends after it.
    mutating func closeEvents(with event: StartupEvent) -> SchedulerActions<Worker, Listener> {
        guard case .ended = phase else { preconditionFailure("events close after the run ended") }
        var actions = SchedulerActions<Worker, Listener>()
        mailbox.append(event)
        actions.deliver = mailbox.close()
        return actions
    }

    // MARK: - Decisions

    /// An input's time, made to move forward: the later of its reading and every earlier input's.
    private mutating func advance(to reading: Duration) -> Duration {
        if reading > latest { latest = reading }
        return latest
    }

    private mutating func arrived(at now: Duration, _ actions: inout SchedulerActions<Worker, Listener>) {
        if case .running(wakePending: true) = phase { phase = .running(wakePending: false) }
        wakeWorkerIfNeeded(at: now, &actions)
    }

    /// A free worker's next step: the best ready command if a slot is free, else park, or exit
    /// once nothing more will start.
    private mutating func nextStep(at now: Duration) -> WorkerStep {
        switch phase {
        case .running:
            guard busy < slots, let key = ready.popMin() else { return .park }
            return .run(start(Job(position: key.position, attempt: 1, delay: .zero), at: now))
        case .stopping, .ended:
            return .exit
        case .notStarted:
            preconditionFailure("a worker before the run began")
        }
    }

    private mutating func start(_ job: Job, at now: Duration) -> Job {
        busy += 1
        records[job.position].attempts = Int32(clamping: job.attempt)
        records[job.position].progress = .running
        if job.attempt == 1 { records[job.position].start = now.clampedNanoseconds }
        if mailbox.isEnabled { mailbox.append(.commandStarted(commands[job.position].id, attempt: job.attempt, at: now)) }
        return job
    }

    /// Keeps one more worker coming while ready commands wait for a free slot's worker: hands a
    /// job to a parked one, or asks for a new one. Only one is on its way at a time; when it
    /// comes it does the same, so workers grow one by one while commands are ready.
    private mutating func wakeWorkerIfNeeded(at now: Duration, _ actions: inout SchedulerActions<Worker, Listener>) {
        guard case .running(wakePending: false) = phase, busy < slots, !ready.isEmpty else { return }
        phase = .running(wakePending: true)
        if let worker = parked.popLast(), let key = ready.popMin() {
            actions.resume.append((worker, .run(start(Job(position: key.position, attempt: 1, delay: .zero), at: now))))
        } else {
            actions.spawnWorker = true
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
        return start(Job(position: job.position, attempt: job.attempt + 1, delay: delay), at: now)
    }

    private mutating func release(dependentsOf position: Int) {
        countdown.finish(position, into: &released)
        // Popped, so the buffer empties as it goes and keeps its capacity; the heap's order does
        // not depend on the order of inserts.
        while let dependent = released.popLast() { ready.insert(readyKeys[dependent]) }
    }

    private mutating func fail(_ position: Int, as status: CommandStatus, at now: Duration,
                               _ actions: inout SchedulerActions<Worker, Listener>) {
        end(position, as: status, at: now)
        let skippedRequired = skipDependents(of: position, at: now)
        if failFast, !commands[position].options.isOptional || skippedRequired {
            stop(.failFast, at: now, &actions)
        }
    }

    /// Skips every transitive dependent that has not started, iteratively. Returns whether a
    /// required command was among them.
    private mutating func skipDependents(of failed: Int, at now: Duration) -> Bool {
        let failedID = commands[failed].id
        var skippedRequired = false
        var stack = graph.dependents(of: failed).map { (command: $0, via: failed) }
        while let (command, via) = stack.popLast() {
            guard records[command].progress == .waiting else { continue }
            end(command, as: .skipped(SkipReason(failedCommand: failedID, dependency: commands[via].id)), at: now)
            skippedRequired = skippedRequired || !commands[command].options.isOptional
            stack.append(contentsOf: graph.dependents(of: command).map { ($0, command) })
        }
        return skippedRequired
    }

    /// Stops starting commands: ready ones end cancelled, parked workers exit, and under
    /// fail-fast the owner cancels the attempts in flight.
    private mutating func stop(_ reason: StopReason, at now: Duration, _ actions: inout SchedulerActions<Worker, Listener>) {
        guard case .running = phase else { return }
        phase = .stopping(reason)
        while let key = ready.popMin() {
            end(key.position, as: .cancelled, at: now)
        }
        actions.resume += parked.map { ($0, .exit) }
        parked.removeAll()
        if reason == .failFast { actions.cancelWorkers = true }
    }

    private mutating func end(_ position: Int, as status: CommandStatus, at now: Duration) {
        records[position].progress = .done
        if !status.isSuccess { outcomes[position] = status }
        unfinished -= 1
        guard mailbox.isEnabled else { return }
        let record = records[position]
        mailbox.append(.commandFinished(commands[position].id, status: status, attempts: Int(record.attempts),
                                        startOffset: record.startOffset, at: now))
    }

    /// Ends the run when nothing runs and nothing more will start: what never ran ends
    /// cancelled, parked workers exit, and the owner is told.
    private mutating func endIfDone(at now: Duration, _ actions: inout SchedulerActions<Worker, Listener>) {
        let reason: StopReason?
        switch phase {
        case .running:
            guard unfinished == 0 else {
                assert(busy > 0 || !ready.isEmpty, "a running run with nothing running and nothing ready")
                return
            }
            reason = nil
        case .stopping(let stopReason):
            guard busy == 0 else { return }
            reason = stopReason
        case .notStarted, .ended:
            return
        }
        for position in records.indices where records[position].progress != .done {
            end(position, as: .cancelled, at: now)
        }
        phase = .ended(reason, at: now.clampedNanoseconds)
        actions.resume += parked.map { ($0, .exit) }
        parked.removeAll()
        actions.runEnded = true
    }

    /// Adds the events handed to a waiting listener to the actions.
    private mutating func finishing(_ actions: SchedulerActions<Worker, Listener>) -> SchedulerActions<Worker, Listener> {
        guard mailbox.isEnabled, let handOver = mailbox.handOver() else { return actions }
        var actions = actions
        actions.deliver = handOver
        return actions
    }
}

extension SchedulerStateMachine: Sendable where Worker: Sendable, Listener: Sendable {}
