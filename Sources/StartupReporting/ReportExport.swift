import StartupKit

/// Forms of a run's report: JSON (what ``SavedRun`` saves, and what the CLI prints for machines),
/// the Chrome Trace Event Format (opens in Perfetto and chrome://tracing), and the summary a
/// person reads (what the CLI prints after a run).
public enum ReportExport {
    /// The report as a person reads it, as `startup run` prints it: the outcome with the wall time
    /// and the statuses counted, the sum of durations and the parallelism, the critical path with
    /// each step's duration, then a table of every command by start (those that never started
    /// last) with its start, duration and slack, `*` on the critical path, and its status with why
    /// it did not succeed:
    ///
    /// ```
    /// Succeeded in 60ms: 3 succeeded
    ///   sum of durations 90ms, parallelism 1.5x
    ///   critical path 60ms: config 10ms -> screen 50ms
    ///
    ///    start duration    slack   command  status
    ///      0ms     10ms      0ms * config   succeeded
    ///     10ms     30ms     20ms   cache    succeeded
    ///     10ms     50ms      0ms * screen   succeeded
    /// ```
    ///
    /// Plain text, no colours, ending in a line break.
    ///
    /// - Complexity: O(*n* log *n*) in the commands.
    public static func summary(_ report: StartupReport) -> String {
        let summary = ReportSummary(report: report)
        return (summary.headline + [""] + summary.table).joined(separator: "\n") + "\n"
    }

    /// The report as JSON: `{"status", "wallMs", "commands": [{"id", "status", "startMs", "endMs",
    /// "durationMs", "attempts", "slackMs", "optional", "critical", "service", "readyMs", "priority",
    /// "effectivePriority", "estimateMs", "estimateLaunches", "detail", "skipReason", "timeoutMs", "dependencies", "after", "budgetMs"}], "criticalPath", "criticalPathMs", "totalMs",
    /// "parallelism", "manifest", "simulated", "jobs", "wallBudgetMs", "budgetViolations"}`.
    ///
    /// A service's `durationMs` and `readyMs` are its time to ready (`readyMs` is `null` for a
    /// command, and for a service that never became ready). `priority` (the declared one) and
    /// `effectivePriority` (the one it was started with) are written where the report knows them,
    /// as `"low"`, `"normal"`, `"high"` or a number. `estimateMs` is the estimate the run was
    /// planned with, where there was one, and `estimateLaunches` the number of past launches it was
    /// learned from, where it was learned (a declared one has none). A command that never started has `startMs` and `endMs` `null`; `detail` (the reason in
    /// words), `skipReason` (`{"failedCommand", "dependency"}`), `timeoutMs`, `after` (the ids it
    /// runs after, `CommandReport.after`) and `budgetMs` appear only where they apply. ``SavedRun/decode(_:file:)`` reads it back to an equal report.
    ///
    /// - Complexity: O(commands + edges).
    public static func json(_ report: StartupReport, settings: RunSettings = RunSettings()) -> JSONOutput {
        let (head, tail) = members(report, settings: settings)
        let commands = report.commands.map { command in
            var builder = JSONObjectBuilder()
            write(command, budget: settings.budgets[command.id], to: &builder)
            return JSONOutput.object(builder.members)
        }
        return .object(head + [("commands", .array(commands))] + tail)
    }

    /// The text of ``json(_:settings:)``, pretty and ending in a line break, as a saved report's file holds it.
    ///
    /// Up to `parts` tasks write side by side, each writing the JSON of a run of the commands one at a time, with no
    /// JSON value made for them: the report of a run of thousands is never held as a tree of values.
    public static func jsonText(_ report: StartupReport, settings: RunSettings = RunSettings(), parts: Int = 1) async -> String {
        await jsonText(report, settings: settings, parts: parts, additions: ReportAdditions())
    }

    /// ``jsonText(_:settings:parts:)`` with what the caller knows beyond the report written into it as it is
    /// written: members of each command after its own, and members of the whole after the report's.
    package static func jsonText(_ report: StartupReport, settings: RunSettings, parts: Int, additions: ReportAdditions) async -> String {
        let (head, tail) = members(report, settings: settings)
        return await JSONOutput.text(
            object: head + [("commands", .array([]))] + tail + additions.members, arrayAt: head.count, count: report.commands.count,
            writeElement: { index, output in
                let command = report.commands[index]
                JSONObjectWriter.write(to: &output, indent: 2) { writer in
                    write(command, budget: settings.budgets[command.id], to: &writer)
                    for (key, value) in additions.commandMembers(command.id) { writer.member(key, value) }
                }
            },
            pretty: true, parts: parts, lineBreakAtEnd: true)
    }

    /// The members before and after `commands`, in order.
    private static func members(
        _ report: StartupReport, settings: RunSettings
    ) -> (head: [(key: String, value: JSONOutput)], tail: [(key: String, value: JSONOutput)]) {
        (
            [("status", .string(report.status.rawValue)), ("wallMs", .milliseconds(report.wallTime))],
            [
                ("criticalPath", ids(report.criticalPath)),
                ("criticalPathMs", .milliseconds(report.criticalPathDuration)),
                ("totalMs", .milliseconds(report.totalDuration)),
                ("parallelism", .number(report.parallelism)),
                ("manifest", settings.manifestPath.map(JSONOutput.string) ?? .null),
                ("simulated", .bool(settings.isSimulated)),
                ("jobs", settings.jobs.map(JSONOutput.integer) ?? .null),
                ("wallBudgetMs", settings.wallBudget.map(JSONOutput.milliseconds) ?? .null),
                (
                    "budgetViolations",
                    .array(
                        settings.budgetViolations(of: report).map { violation in
                            .object([
                                ("id", violation.id.map { .string($0.rawValue) } ?? .null),
                                ("budgetMs", .milliseconds(violation.budget)),
                                ("actualMs", .milliseconds(violation.actual)),
                            ])
                        })
                ),
            ]
        )
    }

    /// One command's members, for ``json(_:settings:)`` and ``jsonText(_:settings:parts:)`` alike.
    private static func write(_ command: CommandReport, budget: Duration?, to sink: inout some JSONMemberSink) {
        sink.string("id", command.id.rawValue)
        sink.string("status", command.status.name)
        sink.milliseconds("startMs", command.startOffset)
        sink.milliseconds("endMs", command.endOffset)
        sink.milliseconds("durationMs", command.duration)
        sink.integer("attempts", command.attempts)
        sink.milliseconds("slackMs", command.slack)
        sink.bool("optional", command.isOptional)
        sink.bool("critical", command.isOnCriticalPath)
        sink.bool("service", command.isService)
        sink.milliseconds("readyMs", command.timeToReady)
        if command.ranOnBlockingPool { sink.bool("blocking", true) }
        if let priority = command.priority { sink.priority("priority", priority) }
        if let priority = command.effectivePriority { sink.priority("effectivePriority", priority) }
        if let estimate = command.estimate {
            sink.milliseconds("estimateMs", estimate.duration)
            if let launches = estimate.launches { sink.integer("estimateLaunches", launches) }
        }
        if let module = command.module { sink.string("module", module) }
        if let detail = command.status.detail { sink.string("detail", detail) }
        switch command.status {
        case .skipped(let reason):
            sink.object("skipReason") { reasonSink in
                reasonSink.string("failedCommand", reason.failedCommand.rawValue)
                reasonSink.string("dependency", reason.dependency.rawValue)
            }
        case .timedOut(let limit):
            sink.milliseconds("timeoutMs", limit)
        case .succeeded, .failed, .cancelled, .notRequested:
            break
        }
        sink.ids("dependencies", command.dependencies)
        if !command.after.isEmpty { sink.ids("after", command.after) }
        if let budget { sink.milliseconds("budgetMs", budget) }
    }

    /// Command ids as an array of strings.
    static func ids(_ ids: [CommandID]) -> JSONOutput {
        .array(ids.map { .string($0.rawValue) })
    }
}
