/// The state of one run, owned by the orchestrator's task-group loop: dependency counts, the
/// ready queue, and what has happened to each command.
struct OrchestratorRun {
    /// Where a command stands.
    private enum Progress {
        case waiting
        case running
        case done(CommandStatus)
    }

    /// What the run knows of one command.
    private struct Record {
        var progress = Progress.waiting
        var start: Duration?
        var end: Duration?
        var attempts = 0
    }

    /// Why nothing more starts.
    private enum Stop {
        case failFast
        case cancelled
    }

    private let plan: StartupPlan
    private let options: StartupOrchestrator.Options
    private let clock: StartedClock
    private let outputs: OutputStore
    private let slots: Int
    private var pendingDependencies: [Int]
    private var ready = PriorityHeap<ReadyKey>()
    private var records: [Record]
    private var running = 0
    private var stop: Stop?

    init(plan: StartupPlan, options: StartupOrchestrator.Options, clock: StartedClock) {
        self.plan = plan
        self.options = options
        self.clock = clock
        self.outputs = OutputStore(count: plan.count)
        self.slots = options.maxConcurrency ?? Int.max
        let graph = plan.storage.graph
        self.pendingDependencies = (0..<plan.count).map { graph.dependencies(of: $0).count }
        self.records = Array(repeating: Record(), count: plan.count)
    }

    /// Queues the commands without dependencies and starts as many as there are slots.
    mutating func begin(group: inout TaskGroup<AttemptResult>) {
        emit(.runStarted(commandCount: plan.count))
        for position in 0..<plan.count where pendingDependencies[position] == 0 {
            ready.insert(plan.storage.readyKeys[position])
        }
        stopIfCancelled(group: &group)
        launchReady(group: &group)
    }

    /// Takes in the end of one attempt: records it, retries it, releases or skips dependents, and
    /// fills the free slots.
    mutating func handle(_ result: AttemptResult, group: inout TaskGroup<AttemptResult>) {
        stopIfCancelled(group: &group)
        running -= 1
        let position = result.position
        let command = plan.storage.commands[position]
        records[position].end = result.end

        switch result.outcome {
        case .succeeded:
            finish(position, as: .succeeded)
            if stop == nil { release(dependentsOf: position) }
        case .threw(let error):
            if stop != nil {
                finish(position, as: .cancelled)
            } else if records[position].attempts <= command.options.retry.maxRetries {
                retry(position, after: .failed(error), group: &group)
            } else {
                fail(position, as: .failed(error), group: &group)
            }
        case .timedOut(let timeout):
            if stop == nil, records[position].attempts <= command.options.retry.maxRetries {
                retry(position, after: .timedOut(after: timeout), group: &group)
            } else {
                fail(position, as: .timedOut(after: timeout), group: &group)
            }
        }
        launchReady(group: &group)
    }

    /// Marks what never ran as cancelled and assembles the report.
    mutating func finish() -> StartupReport {
        let wallTime = clock.elapsed()
        for position in records.indices {
            if case .done = records[position].progress { continue }
            finish(position, as: .cancelled)
        }
        let commands = plan.storage.commands
        var measured: [CommandID: Duration] = [:]
        measured.reserveCapacity(commands.count)
        for (position, record) in records.enumerated() {
            measured[commands[position].id] = record.start.flatMap { start in record.end.map { $0 - start } } ?? .zero
        }
        let timing = plan.timing(durations: measured)
        let critical = Set(timing.criticalPath)
        let reports = records.enumerated().map { position, record in
            guard case .done(let status) = record.progress else { preconditionFailure("every command has ended") }
            return CommandReport(
                id: commands[position].id, status: status, startOffset: record.start, endOffset: record.end,
                attempts: record.attempts, isOptional: commands[position].options.isOptional,
                slack: timing.entries[position].slack, isOnCriticalPath: critical.contains(commands[position].id))
        }
        let status: StartupReport.Status
        if case .cancelled = stop {
            status = .cancelled
        } else {
            status = reports.contains { !$0.isOptional && !$0.status.isSuccess } ? .failed : .succeeded
        }
        let report = StartupReport(
            status: status, commands: reports, wallTime: wallTime, criticalPath: timing.criticalPath,
            criticalPathDuration: timing.criticalPathDuration, index: plan.storage.index)
        emit(.runFinished(report))
        return report
    }

    // MARK: - Starting

    private mutating func launchReady(group: inout TaskGroup<AttemptResult>) {
        while stop == nil, running < slots, let next = ready.popMin() {
            launch(next.position, delay: .zero, group: &group)
        }
    }

    private mutating func launch(_ position: Int, delay: Duration, group: inout TaskGroup<AttemptResult>) {
        let command = plan.storage.commands[position]
        records[position].attempts += 1
        records[position].progress = .running
        let attempt = records[position].attempts
        let now = clock.elapsed()
        if attempt == 1 { records[position].start = now }
        running += 1
        emit(.commandStarted(command.id, attempt: attempt, at: now))
        let context = StartupContext(attempt: attempt, index: position, plan: plan, outputs: outputs)
        let clock = self.clock
        group.addTask {
            await AttemptRunner.run(command, position: position, context: context, delay: delay, clock: clock)
        }
    }

    private mutating func retry(_ position: Int, after outcome: CommandStatus, group: inout TaskGroup<AttemptResult>) {
        let command = plan.storage.commands[position]
        let failedAttempt = records[position].attempts
        let delay = command.options.retry.delay(beforeAttempt: failedAttempt + 1)
        emit(.commandRetrying(command.id, failedAttempt: failedAttempt, outcome: outcome, delay: delay, at: clock.elapsed()))
        launch(position, delay: delay, group: &group)
    }

    private mutating func release(dependentsOf position: Int) {
        for dependent in plan.storage.graph.dependents(of: position) {
            pendingDependencies[dependent] -= 1
            if pendingDependencies[dependent] == 0 {
                ready.insert(plan.storage.readyKeys[dependent])
            }
        }
    }

    // MARK: - Ending

    private mutating func fail(_ position: Int, as status: CommandStatus, group: inout TaskGroup<AttemptResult>) {
        finish(position, as: status)
        skipDependents(of: position)
        if options.failurePolicy == .failFast, !plan.storage.commands[position].options.isOptional {
            stopAll(.failFast, group: &group)
        }
    }

    /// Skips every transitive dependent of a command that did not succeed, iteratively.
    private mutating func skipDependents(of failed: Int) {
        let graph = plan.storage.graph
        let failedID = plan.storage.commands[failed].id
        var stack = graph.dependents(of: failed).map { (command: $0, via: failed) }
        while let (command, via) = stack.popLast() {
            guard case .waiting = records[command].progress else { continue }
            finish(command, as: .skipped(SkipReason(failedCommand: failedID, dependency: plan.storage.commands[via].id)))
            stack.append(contentsOf: graph.dependents(of: command).map { ($0, command) })
        }
    }

    private mutating func stopIfCancelled(group: inout TaskGroup<AttemptResult>) {
        if stop == nil, Task.isCancelled { stopAll(.cancelled, group: &group) }
    }

    private mutating func stopAll(_ reason: Stop, group: inout TaskGroup<AttemptResult>) {
        stop = reason
        group.cancelAll()
        while let next = ready.popMin() {
            finish(next.position, as: .cancelled)
        }
    }

    private mutating func finish(_ position: Int, as status: CommandStatus) {
        records[position].progress = .done(status)
        emit(.commandFinished(plan.storage.commands[position].id, status: status,
                              attempts: records[position].attempts, startOffset: records[position].start,
                              at: records[position].end ?? clock.elapsed()))
    }

    private func emit(_ event: @autoclosure () -> StartupEvent) {
        guard !options.observers.isEmpty else { return }
        let event = event()
        for observer in options.observers { observer.observe(event) }
    }
}
