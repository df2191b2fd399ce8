import StartupKit
import StartupReporting

/// Saved runs made by hand: commands with durations and dependencies, timed as if every
/// command started the moment its dependencies ended.
package enum RecordFixtures {
    /// The failure fixtures give a command unless told otherwise.
    package static let exitStatus1 = CommandStatus.failed(RecordedError(message: "exit status 1"))

    /// A run of `commands` (id, milliseconds, dependencies) with unlimited slots; a command given
    /// a skipped or cancelled status never started. `after` gives commands order-only edges, which
    /// time it as dependencies do.
    package static func record(
        _ commands: [(CommandID, Int, [CommandID])], after: [CommandID: [CommandID]] = [:],
        status: [CommandID: CommandStatus] = [:], budgets: [CommandID: Duration] = [:]
    ) throws -> SavedRun {
        var builder = StartupPlanBuilder()
        for (id, milliseconds, dependencies) in commands {
            let options = CommandOptions(estimate: .milliseconds(milliseconds))
            builder.add(id, dependsOn: dependencies, after: after[id] ?? [], options: options) { _ in }
        }
        let timing = try builder.build().timing()
        let critical = Set(timing.criticalPath)
        let reports = commands.map { id, _, dependencies in
            let entry = timing[id]!
            let recorded = status[id] ?? .succeeded
            let ran =
                switch recorded {
                case .skipped, .cancelled: false
                default: true
                }
            return CommandReport(
                id: id, status: recorded, startOffset: ran ? entry.earliestStart : nil, endOffset: ran ? entry.earliestFinish : nil,
                attempts: ran ? 1 : 0, slack: entry.slack, isOnCriticalPath: critical.contains(id), dependencies: dependencies,
                after: after[id] ?? [])
        }
        let report = StartupReport(
            status: status.values.contains { !$0.isSuccess } ? .failed : .succeeded, commands: reports,
            wallTime: timing.criticalPathDuration, criticalPath: timing.criticalPath, criticalPathDuration: timing.criticalPathDuration)
        return SavedRun(report: report, settings: RunSettings(budgets: budgets))
    }

    /// Two runs for comparing. Before: a 10 -> b 50 -> d 10, with c 20 beside b (slack 30) and
    /// x 15 on its own. After: a 5, b 80, c 40 (still within slack), e 5 added, x removed.
    package static func beforeAndAfter() throws -> (before: StartupReport, after: StartupReport) {
        let before = try record([
            ("a", 10, []), ("b", 50, ["a"]), ("c", 20, ["a"]), ("d", 10, ["b", "c"]), ("x", 15, []),
        ])
        let after = try record([
            ("a", 5, []), ("b", 80, ["a"]), ("c", 40, ["a"]), ("d", 10, ["b", "c"]), ("e", 5, ["a"]),
        ])
        return (before.report, after.report)
    }
}
