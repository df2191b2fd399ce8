import StartupKit
import StartupManifest
import StartupReporting

/// The text after a run: the outcome, wall time, sum of durations, parallelism, the critical path
/// with each step's duration (``ReportSummary/headline``, as `ReportExport.summary` gives it), and
/// the failures with their captured output.
struct RunSummaryRenderer {
    let report: StartupReport
    let outputs: CommandOutputs
    let style: Style
    /// Whether progress lines already showed failures' output (grouped mode).
    let outputAlreadyShown: Bool

    func render() -> String {
        var lines = [""] + ReportSummary(report: report, style: style).headline
        let failures = report.commands.filter { $0.status.isFailure && !isSkippedOrCancelled($0.status) }
        if !failures.isEmpty {
            lines.append("")
            lines.append("Failures:")
            for failure in failures {
                let optional = failure.isOptional ? " (optional)" : ""
                lines.append("  \(style.mark(failure.status)) \(failure.id)\(optional): \(failure.status.detail ?? "")")
                if !outputAlreadyShown {
                    let output = ProgressPrinter.indented(outputs.output(of: failure.id))
                    if !output.isEmpty { lines.append(String(output.dropLast())) }
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func isSkippedOrCancelled(_ status: CommandStatus) -> Bool {
        switch status {
        case .skipped, .cancelled: true
        default: false
        }
    }
}
