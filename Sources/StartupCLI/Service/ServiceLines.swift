import StartupKit
import StartupReporting

/// Shows services' output while the stack runs: each line prefixed with the service's id
/// (`api | listening on 8080`, the prefix coloured on a terminal), on standard output, or on
/// standard error when standard output carries the JSON report. With `--output quiet` the lines
/// are only kept, to show if the service fails. Either way the last lines are kept for the
/// summary's failures.
struct ServiceLines: Sendable {
    let console: Console
    let style: Style
    let outputs: CommandOutputs
    let mode: OutputMode
    let toStandardError: Bool
    let idWidth: Int
    /// The most kept of one service's output, as for captured commands.
    static let keptLimit = 64 * 1024

    /// Shows and keeps one line of `id`'s output.
    func show(_ line: String, of id: CommandID) {
        outputs.append(line + "\n", for: id, keepingAtMost: Self.keptLimit)
        guard mode != .quiet else { return }
        let text = style.dim(id.rawValue.padded(to: idWidth) + " |") + " " + line + "\n"
        if toStandardError { console.err(text) } else { console.out(text) }
    }
}
