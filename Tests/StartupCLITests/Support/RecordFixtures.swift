import StartupKit
import StartupManifest

/// Run records made by hand: commands with durations and dependencies, timed as if every
/// command started the moment its dependencies ended.
enum RecordFixtures {
    /// A record of `commands` (id, milliseconds, dependencies) run with unlimited slots.
    static func record(_ commands: [(CommandID, Int, [CommandID])], status: [CommandID: RecordedStatus] = [:],
                       budgets: [CommandID: Duration] = [:]) throws -> RunRecord {
        var shell = RunRecord(status: .succeeded, wallTime: .zero, commands: commands.map { id, milliseconds, dependencies in
            RunRecordCommand(id: id, status: .succeeded, duration: .milliseconds(milliseconds), dependencies: dependencies)
        }, criticalPath: [], criticalPathDuration: .zero)
        let timing = try shell.makePlan().timing()
        let critical = Set(timing.criticalPath)
        shell.commands = shell.commands.map { command in
            let entry = timing[command.id]!
            let recorded = status[command.id] ?? .succeeded
            let ran = recorded != .skipped
            return RunRecordCommand(
                id: command.id, status: recorded, startOffset: ran ? entry.earliestStart : nil,
                endOffset: ran ? entry.earliestFinish : nil, duration: ran ? command.duration : .zero,
                attempts: ran ? 1 : 0, slack: entry.slack, isOnCriticalPath: critical.contains(command.id),
                detail: recorded == .failed ? "exit status 1" : nil, dependencies: command.dependencies,
                budget: budgets[command.id])
        }
        shell.criticalPath = timing.criticalPath
        shell.criticalPathDuration = timing.criticalPathDuration
        shell.wallTime = timing.criticalPathDuration
        if status.values.contains(where: { $0 != .succeeded }) { shell.status = .failed }
        return shell
    }
}
