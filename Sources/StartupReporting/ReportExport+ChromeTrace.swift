import StartupKit

extension ReportExport {
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
            if let detail = command.status.detail { args.append(("detail", .string(detail))) }
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
