/// What a run's state machine knew when the run ended: enough to make the report, taken under
/// the lock and turned into a report outside it.
struct RunResult: Sendable {
    /// The timing and progress of every command, by position.
    let records: [CommandRecord]
    /// The status of every command that ended other than by succeeding.
    let outcomes: [Int: CommandStatus]
    /// Whether each command was part of the run (others are reported not requested).
    let wanted: [Bool]
    /// Why the run stopped early, if it did.
    let stopReason: StopReason?
    /// When the last command ended, in nanoseconds from the start of the run.
    let endedAt: Int64

    init<Worker, Listener, Waiter, Reader>(_ machine: SchedulerStateMachine<Worker, Listener, Waiter, Reader>) {
        guard case .settled(let settlement) = machine.state else { preconditionFailure("the report of a run that has not settled") }
        records = machine.records
        outcomes = machine.outcomes
        wanted = machine.wanted
        stopReason = settlement.reason
        endedAt = settlement.at
    }

    /// The report: statuses, offsets, and the critical path and slack from measured durations.
    ///
    /// - Complexity: O(commands + edges).
    func report(plan: StartupPlan) -> StartupReport {
        let commands = plan.storage.commands
        let durations = records.map { record in record.start < 0 ? nil : max(0, record.end - record.start) }
        let timing = MeasuredTiming(graph: waitGraph(plan.storage.graph), durations: durations)
        var isCritical = [Bool](repeating: false, count: commands.count)
        for position in timing.criticalPath { isCritical[position] = true }
        var anyRequiredFailed = false
        let reports = records.indices.map { position in
            let record = records[position]
            let status: CommandStatus =
                if !wanted[position] { .notRequested } else if outcomes.isEmpty { .succeeded } else { outcomes[position] ?? .succeeded }
            let isOptional = commands[position].options.isOptional
            if !isOptional, status.isFailure { anyRequiredFailed = true }
            return CommandReport(
                id: commands[position].id, status: status, startOffset: record.startOffset, endOffset: record.endOffset,
                attempts: Int(record.attempts), isOptional: isOptional,
                slack: timing.slack(position),
                isOnCriticalPath: isCritical[position], dependencies: commands[position].dependencies, isAbandoned: record.abandoned,
                isService: commands[position].serve != nil, ranOnBlockingPool: commands[position].isBlocking,
                effectivePriority: plan.raisedPriority(at: position) ?? commands[position].options.priority,
                priority: commands[position].options.priority, estimate: plan.estimate(at: position),
                module: commands[position].module, after: commands[position].after)
        }
        let status: StartupReport.Status =
            if stopReason == .cancelled { .cancelled } else if anyRequiredFailed { .failed } else { .succeeded }
        return StartupReport(
            status: status, commands: reports, wallTime: .nanoseconds(endedAt), criticalPath: timing.criticalPath.map { commands[$0].id },
            criticalPathDuration: .nanoseconds(timing.sweep.end), index: plan.storage.index)
    }

    /// What the commands waited for (``WaitGraph``): the plan's graph itself when it has no
    /// `after` edge.
    ///
    /// - Complexity: O(commands + edges).
    private func waitGraph(_ graph: DependencyGraph) -> DependencyGraph {
        guard graph.hasOrderOnly else { return graph }
        let spans: [WaitGraph.Span] = records.map { record in record.start < 0 || record.end < 0 ? nil : (record.start, record.end) }
        // A subgraph of the plan's, which has no cycle.
        return WaitGraph.make(spans: spans, dependencies: graph.dependencies(of:), after: graph.orderOnlyPredecessors(of:)) ?? graph
    }
}
