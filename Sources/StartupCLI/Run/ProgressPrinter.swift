import StartupKit
import StartupManifest
import StartupReporting

/// Prints each command as it finishes (status, duration, and in grouped mode its output), each
/// service as it becomes ready (its time to ready; its output streams on its own), each retry,
/// and each service that ends by itself, as the run's events arrive.
struct ProgressPrinter: StartupObserver {
    let console: Console
    let style: Style
    let outputs: CommandOutputs
    let mode: OutputMode
    let idWidth: Int
    /// The services, whose success reads `ready`.
    let services: Set<CommandID>
    /// How stopped commands' processes ended, said after a timeout or a cancellation.
    var endings = ProcessEndings()

    func observe(_ event: StartupEvent) {
        let text = text(for: event)
        if !text.isEmpty { console.out(text) }
    }

    /// Events that arrived together are written at once: a busy run makes one write per batch, not
    /// one per command, and one per `batchLimit` bytes of grouped output, so a batch never holds
    /// more than that of the commands' output on top of what they keep.
    func observe(contentsOf events: [StartupEvent]) {
        var text = ""
        for event in events {
            text += self.text(for: event)
            if text.utf8.count >= Self.batchLimit {
                console.out(text)
                text = ""
            }
        }
        if !text.isEmpty { console.out(text) }
    }

    /// Text of a batch beyond which it is written before the rest of the batch is formatted.
    static let batchLimit = 64 << 10

    /// The lines an event prints, or nothing.
    func text(for event: StartupEvent) -> String {
        switch event {
        case .commandFinished(let id, let status, _, let start, let end):
            let duration = start.map { DurationText.format(end - $0) } ?? ""
            let isService = services.contains(id)
            let detail = status.detail.map { "  " + $0 } ?? (isService && status.isSuccess ? "  ready" : "")
            var text =
                "\(style.mark(status)) \(id.rawValue.padded(to: idWidth)) \(duration.leftPadded(to: 7))\(detail)\(stopEnding(of: id, status))\n"
            if mode == .grouped, start != nil, !isService {
                text += Self.indented(outputs.output(of: id))
            }
            return text
        case .commandRetrying(let id, let attempt, let outcome, let delay, _):
            let reason = (outcome.detail ?? outcome.name) + stopEnding(of: id, outcome)
            return
                "\(style.yellow("↻")) \(id.rawValue.padded(to: idWidth)) attempt \(attempt) failed (\(reason)); retrying in \(DurationText.format(delay))\n"
        case .serviceEnded(let error, _):
            let end = ProcessEndings.end(of: error)
            guard let restart = error.restart else {
                return "\(style.red("✗")) \(error.service.rawValue.padded(to: idWidth)) ended by itself: \(end)\n"
            }
            return
                "\(style.yellow("↻")) \(error.service.rawValue.padded(to: idWidth)) \(end), restarting in \(DurationText.format(restart.delay)) (\(restart.number) of \(restart.limit))\n"
        case .runStarted, .commandStarted, .runFinished:
            return ""
        }
    }

    /// `; exited after SIGTERM` or `; killed after the grace period (2 processes)` for a command stopped by its timeout
    /// or a cancellation; nothing for other statuses.
    private func stopEnding(of id: CommandID, _ status: CommandStatus) -> String {
        switch status {
        case .timedOut, .cancelled: endings.commandEnding(of: id).map { "; " + $0.description } ?? ""
        default: ""
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
