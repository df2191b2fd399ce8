import StartupKit

/// The text a person reads of a run, shared by ``ReportExport/summary(_:)`` (plain) and the CLI
/// (in colour): the outcome with the wall time and the statuses counted, the sum of durations and
/// the parallelism, the critical path with each step's duration, and a table of the commands by
/// start (start, duration, slack, `*` on the critical path).
package struct ReportSummary {
    /// The run.
    package let report: StartupReport
    /// Colours, or none.
    package let style: Style

    /// Summarises a run.
    package init(report: StartupReport, style: Style = .plain) {
        self.report = report
        self.style = style
    }

    /// `Succeeded in 483ms: 20 succeeded`, the sum of durations and parallelism, and the critical
    /// path with each step's duration: three lines.
    package var headline: [String] {
        var counts: [String: Int] = [:]
        for command in report.commands { counts[command.status.name, default: 0] += 1 }
        let breakdown = ["succeeded", "failed", "timedOut", "skipped", "cancelled", "notRequested"].compactMap { name in
            counts[name].map { "\($0) \(name == "timedOut" ? "timed out" : name == "notRequested" ? "not requested" : name)" }
        }.joined(separator: ", ")
        let outcome =
            switch report.status {
            case .succeeded: style.green("Succeeded")
            case .failed: style.red("Failed")
            case .cancelled: style.yellow("Interrupted")
            }
        return [
            "\(style.bold(outcome)) in \(DurationText.format(report.wallTime)): \(breakdown)",
            "  sum of durations \(DurationText.format(report.totalDuration)), parallelism \(parallelism)x",
            "  critical path \(DurationText.format(report.criticalPathDuration)): "
                + report.criticalPath.map { id in
                    "\(id) \(DurationText.format(report[id]?.duration ?? .zero))"
                }.joined(separator: " -> "),
        ]
    }

    /// The width of the id column for `rows`: the longest id, at least the heading's and at most
    /// 32 characters.
    package static func idWidth(_ rows: [CommandReport]) -> Int {
        min(32, max("command".count, rows.map(\.id.rawValue.count).max() ?? 0))
    }

    /// The table's heading up to the id column: `   start duration    slack   command`.
    package static func head(idWidth: Int) -> String {
        "   start duration    slack   " + "command".padded(to: idWidth)
    }

    /// A row up to the id column: start, duration, slack (`-` for a command that never started),
    /// `*` on the critical path, and the id.
    package static func columns(_ command: CommandReport, idWidth: Int) -> String {
        let started = command.startOffset != nil
        let time = { (duration: Duration?) in (started ? duration.map(DurationText.format) : nil) ?? "-" }
        return time(command.startOffset).leftPadded(to: 8) + time(command.duration).leftPadded(to: 9)
            + time(command.slack).leftPadded(to: 9) + " \(command.isOnCriticalPath && started ? "*" : " ") "
            + command.id.rawValue.padded(to: idWidth)
    }

    /// Every command by start, those that never started last: the columns, then the status and
    /// why it did not succeed.
    package var table: [String] {
        let rows = report.commandsByStart
        let idWidth = Self.idWidth(rows)
        return [Self.head(idWidth: idWidth) + "  status"]
            + rows.map { command in
                Self.columns(command, idWidth: idWidth) + "  " + command.status.name
                    + (command.status.detail.map { ": " + $0 } ?? "")
            }
    }

    /// The parallelism to one decimal.
    private var parallelism: String {
        let tenths = Int((report.parallelism * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
