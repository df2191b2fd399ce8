import StartupKit

extension ReportExport {
    /// The report in the Chrome Trace Event Format: one complete event per command that ran, on
    /// as few rows as keep events from overlapping; `args` carry status, attempts, slack and
    /// whether the command is on the critical path. A service has a starting span (to ready) and,
    /// given the `shutdown` that stopped it, a running span from ready to the end of its stop.
    public static func chromeTrace(_ report: StartupReport, shutdown: ShutdownReport? = nil) -> JSONOutput {
        var laneEnds: [Duration] = []
        var events: [JSONOutput] = []
        for command in report.commandsByStart {
            guard let start = command.startOffset, let end = command.endOffset else { continue }
            let stopEnd = command.isService && command.status.isSuccess ? shutdown?[command.id]?.endOffset : nil
            let laneEnd = max(end, stopEnd ?? end)
            let lane = laneEnds.firstIndex { $0 <= start } ?? laneEnds.count
            if lane == laneEnds.count { laneEnds.append(laneEnd) } else { laneEnds[lane] = laneEnd }
            var args: [(key: String, value: JSONOutput)] = [
                ("status", .string(command.status.name)),
                ("attempts", .integer(command.attempts)),
                ("slackMs", .milliseconds(command.slack)),
                ("critical", .bool(command.isOnCriticalPath)),
            ]
            if let detail = command.status.detail { args.append(("detail", .string(detail))) }
            if command.ranOnBlockingPool { args.append(("blocking", .bool(true))) }
            let category = command.isOnCriticalPath ? "critical" : command.isService ? "service" : "command"
            events.append(span(command.id.rawValue, category: category, from: start, to: end, lane: lane, args: args))
            if let stopEnd, stopEnd > end {
                events.append(
                    span(
                        command.id.rawValue + " (running)", category: "service", from: end, to: stopEnd, lane: lane,
                        args: [("stop", .string(shutdown?[command.id]?.status.name ?? "succeeded"))]))
            }
        }
        let names: [JSONOutput] = [
            .object([
                ("name", .string("process_name")), ("ph", .string("M")), ("pid", .integer(1)),
                ("args", .object([("name", .string("startup"))])),
            ])
        ]
        return .object([("traceEvents", .array(names + events)), ("displayTimeUnit", .string("ms"))])
    }

    /// One complete ("X") event.
    private static func span(
        _ name: String, category: String, from start: Duration, to end: Duration, lane: Int,
        args: [(key: String, value: JSONOutput)]
    ) -> JSONOutput {
        .object([
            ("name", .string(name)),
            ("cat", .string(category)),
            ("ph", .string("X")),
            ("ts", .number(start.fractionalMilliseconds * 1_000)),
            ("dur", .number((end - start).fractionalMilliseconds * 1_000)),
            ("pid", .integer(1)),
            ("tid", .integer(lane + 1)),
            ("args", .object(args)),
        ])
    }
}
