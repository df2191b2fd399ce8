/// One command's attempt, handed to a worker.
struct Job: Sendable {
    /// The command's position in the plan.
    let position: Int
    /// The attempt, counted from 1.
    let attempt: Int
    /// How long to wait before the attempt (a retry's backoff).
    let delay: Duration
}

/// What the orchestrator's owning task must do: add workers, cancel them all, or finish.
struct OwnerSignal: Sendable {
    /// Workers to add to the task group.
    var spawn = 0
    /// Cancel every worker (fail-fast).
    var cancelAll = false
    /// Every command has ended; the group can be closed.
    var finished = false

    var isEmpty: Bool { spawn == 0 && !cancelAll && !finished }
}

/// The state of one run, changed only under the scheduler's lock: dependency counts, the ready
/// queue, what happened to each command, and which workers are idle.
///
/// Its methods decide; the ``RunScheduler`` carries out what they return (resuming a parked
/// worker or the owner) after leaving the lock.
struct SchedulerState: Sendable {
    /// Where a command stands.
    enum Progress: UInt8 {
        case waiting, running, done
    }

    /// What the run knows of one command, kept small (24 bytes) because the scheduler touches one
    /// per command start and end; how a command ended, unless it succeeded, is in `outcomes`.
    struct Record {
        /// Nanoseconds from the start of the run; -1 until it starts or ends.
        var start: Int64 = -1
        var end: Int64 = -1
        var attempts: Int32 = 0
        var progress = Progress.waiting

        var startOffset: Duration? { start < 0 ? nil : .nanoseconds(start) }
        var endOffset: Duration? { end < 0 ? nil : .nanoseconds(end) }
    }

    /// Why nothing more starts.
    enum Stop {
        case failFast
        case cancelled
    }

    /// A parked worker, resumed with its next job or `nil` to exit.
    typealias Waiter = CheckedContinuation<Job?, Never>

    let plan: StartupPlan
    let options: StartupOrchestrator.Options
    let clock: StartedClock
    private let slots: Int
    private var pendingDependencies: [Int32]
    private var ready = PriorityHeap<ReadyKey>()
    private var records: [Record]
    /// The status of every command that ended other than by succeeding.
    private var outcomes: [Int: CommandStatus] = [:]
    /// Commands taken by workers and not yet ended (including retries waiting for their delay).
    private var running = 0
    /// Commands not yet ended.
    private var unfinished: Int
    private(set) var stop: Stop?
    private var idleWorkers: [Waiter] = []
    /// A worker was woken or requested and has not yet come for work: no second one is needed.
    private var wakeInFlight = false
    private var ownerWaiter: CheckedContinuation<OwnerSignal, Never>?
    private var ownerSignal = OwnerSignal()

    init(plan: StartupPlan, options: StartupOrchestrator.Options, clock: StartedClock) {
        self.plan = plan
        self.options = options
        self.clock = clock
        self.slots = options.maxConcurrency ?? Int.max
        let graph = plan.storage.graph
        self.pendingDependencies = (0..<plan.count).map { Int32(graph.dependencyStart[$0 + 1] - graph.dependencyStart[$0]) }
        self.records = Array(repeating: Record(), count: plan.count)
        self.unfinished = plan.count
    }

    var isFinished: Bool { running == 0 && (unfinished == 0 || stop != nil) }

    // MARK: - Starting

    /// Queues the commands without dependencies and asks the owner for the first worker.
    mutating func begin(cancelled: Bool) -> Effects {
        emit(.runStarted(commandCount: plan.count))
        for position in 0..<plan.count where pendingDependencies[position] == 0 {
            ready.insert(plan.storage.readyKeys[position])
        }
        var effects = Effects()
        if cancelled { stopAll(.cancelled, effects: &effects) }
        wakeWorkerIfNeeded(&effects)
        checkFinished(&effects)
        return effects
    }

    /// A worker coming for work: the best ready command if a slot is free, else `nil` (it parks,
    /// or exits when the run is over). `waiter` is stored when the worker must park.
    mutating func takeJob(parking waiter: Waiter?, effects: inout Effects) -> Job? {
        wakeInFlight = false
        if let job = nextJob() {
            wakeWorkerIfNeeded(&effects)
            return job
        }
        if let waiter {
            if isFinished { effects.resume.append((waiter, nil)) } else { idleWorkers.append(waiter) }
        }
        return nil
    }

    /// The best ready command, started `now` (by default, read from the clock).
    private mutating func nextJob(at now: Duration? = nil) -> Job? {
        guard stop == nil, running < slots, let next = ready.popMin() else { return nil }
        running += 1
        return start(Job(position: next.position, attempt: 1, delay: .zero), at: now)
    }

    private mutating func start(_ job: Job, at time: Duration? = nil) -> Job {
        let now = time ?? clock.elapsed()
        records[job.position].attempts = Int32(job.attempt)
        records[job.position].progress = .running
        if job.attempt == 1 { records[job.position].start = now.clampedNanoseconds }
        emit(.commandStarted(plan.storage.commands[job.position].id, attempt: job.attempt, at: now))
        return job
    }

    /// Keeps one more worker coming while ready commands wait for a free slot's worker: wakes an
    /// idle one, or asks the owner for a new one. Only one is in flight at a time; when it comes,
    /// it does the same, so workers grow one by one as long as commands are ready, and a worker
    /// that finds nothing parks.
    private mutating func wakeWorkerIfNeeded(_ effects: inout Effects) {
        guard !wakeInFlight, stop == nil, running < slots, !ready.isEmpty else { return }
        wakeInFlight = true
        if let idle = idleWorkers.popLast() {
            running += 1
            let job = start(Job(position: ready.popMin()!.position, attempt: 1, delay: .zero))
            effects.resume.append((idle, job))
        } else {
            signalOwner(&effects) { $0.spawn += 1 }
        }
    }

    // MARK: - Ending

    /// Takes in the end of an attempt: records it, retries it, releases or skips dependents.
    /// Returns the worker's next job: the retry, or the best ready command.
    mutating func finish(_ job: Job, outcome: AttemptOutcome, at endOffset: Duration, effects: inout Effects) -> Job? {
        let position = job.position
        let command = plan.storage.commands[position]
        records[position].end = endOffset.clampedNanoseconds
        running -= 1
        switch outcome {
        case .succeeded:
            end(position, as: .succeeded)
            if stop == nil { release(dependentsOf: position) }
        case .threw(let error):
            if stop != nil {
                end(position, as: .cancelled)
            } else if job.attempt <= command.options.retry.maxRetries {
                return retry(job, after: .failed(error))
            } else {
                fail(position, as: .failed(error), effects: &effects)
            }
        case .timedOut(let timeout):
            if stop == nil, job.attempt <= command.options.retry.maxRetries {
                return retry(job, after: .timedOut(after: timeout))
            }
            fail(position, as: .timedOut(after: timeout), effects: &effects)
        }
        // The worker's next command starts as this one ends: one clock reading serves both.
        let next = nextJob(at: endOffset)
        wakeWorkerIfNeeded(&effects)
        checkFinished(&effects)
        return next
    }

    private mutating func retry(_ job: Job, after outcome: CommandStatus) -> Job {
        let command = plan.storage.commands[job.position]
        let delay = command.options.retry.delay(beforeAttempt: job.attempt + 1)
        emit(.commandRetrying(command.id, failedAttempt: job.attempt, outcome: outcome, delay: delay, at: clock.elapsed()))
        running += 1
        return start(Job(position: job.position, attempt: job.attempt + 1, delay: delay))
    }

    private mutating func release(dependentsOf position: Int) {
        let graph = plan.storage.graph
        for edge in graph.dependentStart[position]..<graph.dependentStart[position + 1] {
            let dependent = graph.dependentList[edge]
            pendingDependencies[dependent] -= 1
            if pendingDependencies[dependent] == 0 {
                ready.insert(plan.storage.readyKeys[dependent])
            }
        }
    }

    private mutating func fail(_ position: Int, as status: CommandStatus, effects: inout Effects) {
        end(position, as: status)
        skipDependents(of: position)
        if options.failurePolicy == .failFast, !plan.storage.commands[position].options.isOptional {
            stopAll(.failFast, effects: &effects)
        }
    }

    /// Skips every transitive dependent of a command that did not succeed, iteratively.
    private mutating func skipDependents(of failed: Int) {
        let graph = plan.storage.graph
        let failedID = plan.storage.commands[failed].id
        var stack = graph.dependents(of: failed).map { (command: $0, via: failed) }
        while let (command, via) = stack.popLast() {
            guard records[command].progress == .waiting else { continue }
            end(command, as: .skipped(SkipReason(failedCommand: failedID, dependency: plan.storage.commands[via].id)))
            stack.append(contentsOf: graph.dependents(of: command).map { ($0, command) })
        }
    }

    /// Stops starting commands: the ready ones are cancelled, and for fail-fast the workers too.
    mutating func stopAll(_ reason: Stop, effects: inout Effects) {
        guard stop == nil else { return }
        stop = reason
        while let next = ready.popMin() {
            end(next.position, as: .cancelled)
        }
        if case .failFast = reason { signalOwner(&effects) { $0.cancelAll = true } }
        checkFinished(&effects)
    }

    private mutating func end(_ position: Int, as status: CommandStatus) {
        records[position].progress = .done
        if !status.isSuccess { outcomes[position] = status }
        unfinished -= 1
        emit(.commandFinished(plan.storage.commands[position].id, status: status,
                              attempts: Int(records[position].attempts), startOffset: records[position].startOffset,
                              at: records[position].endOffset ?? clock.elapsed()))
    }

    /// When nothing runs and nothing more will start, releases the idle workers and the owner.
    private mutating func checkFinished(_ effects: inout Effects) {
        guard isFinished, !ownerSignal.finished else { return }
        effects.resume += idleWorkers.map { ($0, nil) }
        idleWorkers.removeAll()
        signalOwner(&effects) { $0.finished = true }
    }

    // MARK: - The owner

    /// The owner asking what to do: the pending signal, or `nil` after storing `waiter`.
    mutating func takeOwnerSignal(waiter: CheckedContinuation<OwnerSignal, Never>?) -> OwnerSignal? {
        guard ownerSignal.isEmpty else {
            defer { ownerSignal = OwnerSignal(finished: ownerSignal.finished) }
            return ownerSignal
        }
        ownerWaiter = waiter
        return nil
    }

    private mutating func signalOwner(_ effects: inout Effects, _ change: (inout OwnerSignal) -> Void) {
        change(&ownerSignal)
        if let waiter = ownerWaiter {
            ownerWaiter = nil
            effects.owner = (waiter, ownerSignal)
            ownerSignal = OwnerSignal(finished: ownerSignal.finished)
        }
    }

    func emit(_ event: @autoclosure () -> StartupEvent) {
        guard !options.observers.isEmpty else { return }
        let event = event()
        for observer in options.observers { observer.observe(event) }
    }

    /// Resumptions to carry out after leaving the lock.
    struct Effects {
        var resume: [(Waiter, Job?)] = []
        var owner: (CheckedContinuation<OwnerSignal, Never>, OwnerSignal)?

        func perform() {
            for (waiter, job) in resume { waiter.resume(returning: job) }
            if let (waiter, signal) = owner { waiter.resume(returning: signal) }
        }
    }
}

extension SchedulerState {
    /// A woken worker has come: the next one may be woken if commands are still waiting.
    mutating func workerArrived(effects: inout Effects) {
        wakeInFlight = false
        wakeWorkerIfNeeded(&effects)
    }

    /// Ends what never ran as cancelled and assembles the report from measured durations.
    ///
    /// - Complexity: O(commands + edges).
    mutating func makeReport() -> StartupReport {
        let wallTime = clock.elapsed()
        for position in records.indices {
            if records[position].progress == .done { continue }
            end(position, as: .cancelled)
        }
        let commands = plan.storage.commands
        let durations = records.map { record in record.start < 0 || record.end < 0 ? 0 : record.end - record.start }
        let sweep = TimingSweep(graph: plan.storage.graph, durations: durations)
        var isCritical = [Bool](repeating: false, count: commands.count)
        for position in sweep.criticalPath { isCritical[position] = true }
        var anyRequiredFailed = false
        let reports = records.indices.map { position in
            let record = records[position]
            let status = outcomes.isEmpty ? .succeeded : outcomes[position] ?? .succeeded
            let isOptional = commands[position].options.isOptional
            if !isOptional, !status.isSuccess { anyRequiredFailed = true }
            return CommandReport(
                id: commands[position].id, status: status, startOffset: record.startOffset, endOffset: record.endOffset,
                attempts: Int(record.attempts), isOptional: isOptional,
                slack: .nanoseconds(sweep.latestStart(position) - sweep.earliestStart[position]),
                isOnCriticalPath: isCritical[position], dependencies: commands[position].dependencies)
        }
        let status: StartupReport.Status = if case .cancelled = stop { .cancelled } else if anyRequiredFailed { .failed } else { .succeeded }
        let report = StartupReport(
            status: status, commands: reports, wallTime: wallTime, criticalPath: sweep.criticalPath.map { commands[$0].id },
            criticalPathDuration: .nanoseconds(sweep.end), index: plan.storage.index)
        emit(.runFinished(report))
        return report
    }
}
