import StartupKit

/// Machine-readable forms of a run's report: JSON (`startup run --format json`) and the Chrome
/// Trace Event Format (opens in Perfetto and chrome://tracing).
public enum ReportExport {
    /// The report as JSON: `{"status", "wallMs", "commands": [{"id", "status", "startMs", "endMs",
    /// "durationMs", "attempts", "slackMs", ...}], "criticalPath", "criticalPathMs", ...}`.
    /// A command that never started has `startMs` and `endMs` `null`.
    public static func json(_ report: StartupReport) -> JSONOutput {
        .object(members(of: RunRecord(report: report)))
    }

    /// The documented keys of a report, in order; the saved report (``RunRecord/json()``) adds its
    /// own after them, per command and at the top.
    static func members(of record: RunRecord, commandExtras: (RunRecordCommand) -> [(key: String, value: JSONOutput)] = { _ in [] })
        -> [(key: String, value: JSONOutput)] {
        [
            ("status", .string(record.status.rawValue)),
            ("wallMs", .milliseconds(record.wallTime)),
            ("commands", .array(record.commands.map { command in
                var members: [(key: String, value: JSONOutput)] = [
                    ("id", .string(command.id.rawValue)),
                    ("status", .string(command.status.rawValue)),
                    ("startMs", command.startOffset.map(JSONOutput.milliseconds) ?? .null),
                    ("endMs", command.endOffset.map(JSONOutput.milliseconds) ?? .null),
                    ("durationMs", .milliseconds(command.duration)),
                    ("attempts", .integer(command.attempts)),
                    ("slackMs", .milliseconds(command.slack)),
                    ("optional", .bool(command.isOptional)),
                    ("critical", .bool(command.isOnCriticalPath)),
                ]
                if let detail = command.detail { members.append(("detail", .string(detail))) }
                return .object(members + commandExtras(command))
            })),
            ("criticalPath", .array(record.criticalPath.map { .string($0.rawValue) })),
            ("criticalPathMs", .milliseconds(record.criticalPathDuration)),
            ("totalMs", .milliseconds(record.totalDuration)),
            ("parallelism", .number(record.parallelism)),
        ]
    }

    /// Why a command did not succeed, in words: the error, the skip reason, the timeout.
    public static func statusDetail(_ status: CommandStatus) -> String? {
        switch status {
        case .succeeded: nil
        case .failed(let error): String(describing: error)
        case .skipped(let reason): reason.description
        case .timedOut(let limit): "timed out after \(DurationText.format(limit))"
        case .cancelled: "cancelled"
        }
    }

    /// The report in the Chrome Trace Event Format: one complete event per command that ran, on
    /// as few rows as keep events from overlapping; `args` carry status, attempts, slack and
    /// whether the command is on the critical path.
    public static func chromeTrace(_ report: StartupReport) -> JSONOutput {
        var laneEnds: [Duration] = []
        var events: [JSONOutput] = []
        for command in report.commandsByStart {
            guard let start = command.startOffset, let end = command.endOffset else { continue }
            let lane = laneEnds.firstIndex { $0 <= start } ?? laneEnds.count
            if lane == laneEnds.count { laneEnds.append(end) } else { laneEnds[lane] = end }
            var args: [(key: String, value: JSONOutput)] = [
                ("status", .string(command.status.name)),
                ("attempts", .integer(command.attempts)),
                ("slackMs", .milliseconds(command.slack)),
                ("critical", .bool(command.isOnCriticalPath)),
            ]
            if let detail = statusDetail(command.status) { args.append(("detail", .string(detail))) }
            events.append(.object([
                ("name", .string(command.id.rawValue)),
                ("cat", .string(command.isOnCriticalPath ? "critical" : "command")),
                ("ph", .string("X")),
                ("ts", .number(start.milliseconds * 1_000)),
                ("dur", .number(command.duration.milliseconds * 1_000)),
                ("pid", .integer(1)),
                ("tid", .integer(lane + 1)),
                ("args", .object(args)),
            ]))
        }
        let names: [JSONOutput] = [.object([
            ("name", .string("process_name")), ("ph", .string("M")), ("pid", .integer(1)),
            ("args", .object([("name", .string("startup"))])),
        ])]
        return .object([("traceEvents", .array(names + events)), ("displayTimeUnit", .string("ms"))])
    }
}
