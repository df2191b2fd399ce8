import StartupKit
import StartupManifest
import StartupReporting

/// The `--trace` timeline: one row per command by start time, with start offset, duration, slack
/// (the columns of ``ReportSummary``'s table) and a bar on a shared time axis scaled to the
/// terminal; critical-path rows are marked `*`.
struct TimelineRenderer {
    let report: StartupReport
    let style: Style
    let width: Int

    func render() -> String {
        let rows = report.commandsByStart.filter { $0.startOffset != nil }
        guard !rows.isEmpty else { return "" }
        let idWidth = ReportSummary.idWidth(rows)
        let prefixWidth = 8 + 9 + 9 + 3 + idWidth + 2
        let barWidth = max(10, width - prefixWidth - 1)
        let scale = max(report.wallTime.fractionalMilliseconds, 0.001) / Double(barWidth)
        var lines = [
            "",
            "Timeline (by start; * critical path, █ running, ░ slack):",
            ReportSummary.head(idWidth: idWidth) + "  " + "0".padded(to: barWidth - 6)
                + DurationText.format(report.wallTime).leftPadded(to: 6),
        ]
        for command in rows {
            let start = command.startOffset!.fractionalMilliseconds
            let end = command.endOffset!.fractionalMilliseconds
            let from = min(barWidth - 1, Int(start / scale))
            let length = max(1, min(barWidth - from, Int((end / scale).rounded()) - from))
            let slackLength = min(barWidth - from - length, Int((command.slack.fractionalMilliseconds / scale).rounded()))
            var bar = String(repeating: " ", count: from) + String(repeating: "█", count: length)
            let barText = command.isOnCriticalPath ? style.red(bar) : bar
            bar = String(repeating: "░", count: slackLength)
            lines.append(ReportSummary.columns(command, idWidth: idWidth) + "  " + barText + style.dim(bar))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
