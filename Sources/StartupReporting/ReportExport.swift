import StartupKit

/// Machine-readable forms of a run's report: JSON (what ``SavedRun`` saves, and what the CLI
/// prints for machines) and the Chrome Trace Event Format (opens in Perfetto and
/// chrome://tracing).
public enum ReportExport {
    /// The report as JSON: `{"status", "wallMs", "commands": [{"id", "status", "startMs", "endMs",
    /// "durationMs", "attempts", "slackMs", "optional", "critical", "service", "readyMs", "detail", "skipReason",
    /// "timeoutMs", "dependencies", "budgetMs"}], "criticalPath", "criticalPathMs", "totalMs",
    /// "parallelism", "manifest", "simulated", "jobs", "wallBudgetMs", "budgetViolations"}`.
    ///
    /// A service's `durationMs` and `readyMs` are its time to ready (`readyMs` is `null` for a
    /// command, and for a service that never became ready). A command that never started has `startMs` and `endMs` `null`; `detail` (the reason in
    /// words), `skipReason` (`{"failedCommand", "dependency"}`), `timeoutMs` and `budgetMs` appear
    /// only where they apply. ``SavedRun/decode(_:file:)`` reads it back to an equal report.
    ///
    /// - Complexity: O(commands + edges).
    public static func json(_ report: StartupReport, settings: RunSettings = RunSettings()) -> JSONOutput {
        let (head, tail) = members(report, settings: settings)
        let commands = report.commands.map { command(of: $0, budget: settings.budgets[$0.id]) }
        return .object(head + [("commands", .array(commands))] + tail)
    }

    /// The text of ``json(_:settings:)``, pretty and ending in a line break, as a saved report's file holds it.
    ///
    /// Up to `parts` tasks write side by side, each making and writing the JSON of a run of the commands one at a
    /// time, so the report of a run of thousands is never held as one tree of JSON values.
    public static func text(_ report: StartupReport, settings: RunSettings = RunSettings(), parts: Int = 1) async -> String {
        let (head, tail) = members(report, settings: settings)
        return await JSONOutput.text(
            object: head + [("commands", .array([]))] + tail, arrayAt: head.count, count: report.commands.count,
            element: { index in
                let command = report.commands[index]
                return Self.command(of: command, budget: settings.budgets[command.id])
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

    private static func command(of command: CommandReport, budget: Duration?) -> JSONOutput {
        var members: [(key: String, value: JSONOutput)] = [
            ("id", .string(command.id.rawValue)),
            ("status", .string(command.status.name)),
            ("startMs", command.startOffset.map(JSONOutput.milliseconds) ?? .null),
            ("endMs", command.endOffset.map(JSONOutput.milliseconds) ?? .null),
            ("durationMs", .milliseconds(command.duration)),
            ("attempts", .integer(command.attempts)),
            ("slackMs", .milliseconds(command.slack)),
            ("optional", .bool(command.isOptional)),
            ("critical", .bool(command.isOnCriticalPath)),
            ("service", .bool(command.isService)),
            ("readyMs", command.timeToReady.map(JSONOutput.milliseconds) ?? .null),
        ]
        if let detail = command.status.detail { members.append(("detail", .string(detail))) }
        switch command.status {
        case .skipped(let reason):
            members.append(
                (
                    "skipReason",
                    .object([
                        ("failedCommand", .string(reason.failedCommand.rawValue)), ("dependency", .string(reason.dependency.rawValue)),
                    ])
                ))
        case .timedOut(let limit):
            members.append(("timeoutMs", .milliseconds(limit)))
        case .succeeded, .failed, .cancelled, .notRequested:
            break
        }
        members.append(("dependencies", ids(command.dependencies)))
        if let budget { members.append(("budgetMs", .milliseconds(budget))) }
        return .object(members)
    }

    private static func ids(_ ids: [CommandID]) -> JSONOutput {
        .array(ids.map { .string($0.rawValue) })
    }
}
