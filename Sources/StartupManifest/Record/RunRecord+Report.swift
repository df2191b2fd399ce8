import StartupKit

extension RunRecord {
    /// The record of a live run.
    ///
    /// - Parameters:
    ///   - report: The run's report.
    ///   - plan: The plan that ran, for each command's dependencies; `nil` for none.
    ///   - manifest: The manifest, for each command's budget; `nil` for none.
    ///   - manifestPath: The manifest's path, saved so readers know what ran.
    ///   - wallBudget: The budget of the whole wall time, if any.
    ///   - jobs: The slot limit of the run; `nil` for unlimited.
    ///   - isSimulated: Whether the run slept for estimates instead of running commands.
    /// - Complexity: O(commands + edges).
    public init(report: StartupReport, plan: StartupPlan? = nil, manifest: Manifest? = nil, manifestPath: String? = nil,
                wallBudget: Duration? = nil, jobs: Int? = nil, isSimulated: Bool = false) {
        var budgets: [CommandID: Duration] = [:]
        for command in manifest?.commands ?? [] {
            if let budget = command.budget { budgets[command.id] = budget }
        }
        let commands = report.commands.map { command in
            RunRecordCommand(
                id: command.id, status: RecordedStatus(command.status), startOffset: command.startOffset,
                endOffset: command.endOffset, duration: command.duration, attempts: command.attempts, slack: command.slack,
                isOptional: command.isOptional, isOnCriticalPath: command.isOnCriticalPath,
                detail: ReportExport.statusDetail(command.status),
                dependencies: plan.map { $0.contains(command.id) ? $0.dependencies(of: command.id) : [] } ?? [],
                budget: budgets[command.id])
        }
        self.init(status: report.status, wallTime: report.wallTime, commands: commands, criticalPath: report.criticalPath,
                  criticalPathDuration: report.criticalPathDuration, manifest: manifestPath, isSimulated: isSimulated,
                  jobs: jobs, wallBudget: wallBudget)
    }
}
