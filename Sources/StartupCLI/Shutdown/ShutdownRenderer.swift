import StartupKit
import StartupManifest
import StartupReporting

/// The text after the `stop` lines ran: one line per stop in the order they ended, with how a
/// service's processes ended (a `!` where some had to be killed) and how often it was restarted, its output when
/// it failed, then the outcome.
struct ShutdownRenderer {
    let report: ShutdownReport
    let outputs: CommandOutputs
    let endings: ProcessEndings
    let style: Style

    func render() -> String {
        let stopped = report.modules.filter { $0.startOffset != nil }.sorted { ($0.endOffset ?? .zero) < ($1.endOffset ?? .zero) }
        let width = min(32, stopped.map(\.module.rawValue.count).max() ?? 0)
        var lines = ["", "Stopping in reverse dependency order:"]
        for call in stopped {
            let detail: String
            let ending = endings.ending(of: call.module)
            switch call.status {
            case .succeeded: detail = ending.map { "  \($0.description)" } ?? ""
            case .failed(let error as ServiceEndedError): detail = "  ended by itself: \(ProcessEndings.end(of: error))"
            case .failed(let error): detail = "  \(error)"
            case .timedOut(let limit): detail = "  timed out after \(DurationText.format(limit))"
            case .cancelled: detail = "  cancelled"
            }
            let restarts = endings.restarts(of: call.module).count
            let restarted = restarts == 0 ? "" : "; restarted \(restarts) time\(restarts == 1 ? "" : "s")"
            let mark =
                !call.status.isSuccess ? style.red("✗") : ending?.killCause != nil ? style.yellow("!") : style.green("✓")
            lines.append(
                "\(mark) \(call.module.rawValue.padded(to: width)) \(DurationText.format(call.duration).leftPadded(to: 7))\(detail)\(restarted)"
            )
            if !call.status.isSuccess {
                let output = ProgressPrinter.indented(outputs.output(of: call.module))
                if !output.isEmpty { lines.append(String(output.dropLast())) }
            }
        }
        let failed = report.failuresNotCutShort.count
        let cutShort = report.modules.count { $0.wasCutShort }
        let killed = stopped.compactMap { $0.status.isSuccess ? endings.ending(of: $0.module)?.killCause : nil }
        let outcome =
            failed > 0 ? style.red("Stopping failed") : cutShort > 0 ? style.yellow("Stopping cut short") : style.green("Stopped")
        lines.append(
            "\(style.bold(outcome)) in \(DurationText.format(report.wallTime)): \(stopped.count - failed - cutShort) stopped"
                + Self.killedClause(killed) + (failed > 0 ? ", \(failed) failed" : "")
                + (cutShort > 0 ? ", \(cutShort) cut short by a second interrupt" : ""))
        return lines.joined(separator: "\n") + "\n"
    }

    /// ` (2 killed after the grace period)` for the stops that killed processes, for `causes`, with the cause when
    /// they share one (` (2 killed)` when they do not); empty when none did.
    static func killedClause(_ causes: [ProcessKill.Cause]) -> String {
        guard let first = causes.first else { return "" }
        let why = causes.allSatisfy { $0 == first } ? " \(ProcessEndings.StopEnding.phrase(first))" : ""
        return " (\(causes.count) killed\(why))"
    }
}
