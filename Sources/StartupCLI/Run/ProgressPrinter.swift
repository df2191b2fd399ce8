import StartupKit
import StartupManifest

/// Prints each command as it finishes (status, duration, and in grouped mode its output), and
/// each retry, as the run's events arrive.
struct ProgressPrinter: StartupObserver {
    let console: Console
    let style: Style
    let outputs: CommandOutputs
    let mode: OutputMode
    let idWidth: Int

    func observe(_ event: StartupEvent) {
        switch event {
        case .commandFinished(let id, let status, _, let start, let end):
            let duration = start.map { DurationText.format(end - $0) } ?? ""
            let detail = status.detail.map { "  " + $0 } ?? ""
            var text = "\(style.mark(status)) \(id.rawValue.padded(to: idWidth)) \(duration.leftPadded(to: 7))\(detail)\n"
            if mode == .grouped, start != nil {
                text += Self.indented(outputs.output(of: id))
            }
            console.out(text)
        case .commandRetrying(let id, let attempt, let outcome, let delay, _):
            let reason = outcome.detail ?? outcome.name
            console.out("\(style.yellow("↻")) \(id.rawValue.padded(to: idWidth)) attempt \(attempt) failed (\(reason)); retrying in \(DurationText.format(delay))\n")
        case .runStarted, .commandStarted, .runFinished, .serviceEnded:
            break
        }
    }

    /// Output lines behind a bar, so they stand apart from the status lines.
    static func indented(_ output: String) -> String {
        guard !output.isEmpty else { return "" }
        var lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        return lines.map { "    │ \($0)\n" }.joined()
    }
}
