import StartupKit
import StartupManifest

/// The text after a run: the outcome, wall time, sum of durations, parallelism, the critical path
/// with each step's duration, and the failures with their captured output.
struct RunSummaryRenderer {
    let report: StartupReport
    let outputs: CommandOutputs
    let style: Style
    /// Whether progress lines already showed failures' output (grouped mode).
    let outputAlreadyShown: Bool

    func render() -> String {
        var counts: [String: Int] = [:]
        for command in report.commands { counts[command.status.name, default: 0] += 1 }
        let breakdown = ["succeeded", "failed", "timedOut", "skipped", "cancelled", "notRequested"].compactMap { name in
            counts[name].map { "\($0) \(name == "timedOut" ? "timed out" : name == "notRequested" ? "not requested" : name)" }
        }.joined(separator: ", ")
        let headline =
            switch report.status {
            case .succeeded: style.green("Succeeded")
            case .failed: style.red("Failed")
            case .cancelled: style.yellow("Interrupted")
            }
        var lines = [
            "",
            "\(style.bold(headline)) in \(DurationText.format(report.wallTime)): \(breakdown)",
            "  sum of durations \(DurationText.format(report.totalDuration)), parallelism \(parallelism)x",
            "  critical path \(DurationText.format(report.criticalPathDuration)): "
                + report.criticalPath.map { id in
                    "\(id) \(DurationText.format(report[id]!.duration))"
                }.joined(separator: " -> "),
        ]
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

    private var parallelism: String {
        let tenths = Int((report.parallelism * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    private func isSkippedOrCancelled(_ status: CommandStatus) -> Bool {
        switch status {
        case .skipped, .cancelled: true
        default: false
        }
    }
}
