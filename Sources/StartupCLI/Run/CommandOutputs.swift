import StartupKit
import StartupSupport

/// The captured output of each command's last attempt, kept for grouped printing and for the
/// failures in the summary.
final class CommandOutputs: Sendable {
    /// Guards the outputs that are not empty, by command.
    private let outputs = Locked<[CommandID: String]>([:])
    /// Each line as it is kept, for those following the output (`startup logs -f`).
    let followed = Broadcast<ControlLogLine>()

    /// Records a command's output, replacing an earlier attempt's. Most commands print nothing: while no
    /// command has, recording an empty output costs no hashing on the scheduler's thread.
    func record(_ output: String, for id: CommandID) {
        if followed.hasSubscribers { send(output, of: id) }
        outputs.withLock { outputs in
            if !output.isEmpty {
                outputs[id] = output
            } else if !outputs.isEmpty {
                outputs[id] = nil
            }
        }
    }

    /// Adds to a service's output as it streams, keeping the last `limit` bytes or so (whole
    /// lines), with a note where it was cut.
    func append(_ text: String, for id: CommandID, keepingAtMost limit: Int) {
        if followed.hasSubscribers { send(text, of: id) }
        outputs.withLock { outputs in
            // In place, and cut to half the limit when over it, so each byte is copied a bounded
            // number of times.
            outputs[id, default: ""].append(text)
            guard let kept = outputs[id], kept.utf8.count > limit else { return }
            let cut = kept.utf8.index(kept.utf8.endIndex, offsetBy: -limit / 2)
            let lineStart = kept[cut...].firstIndex(of: "\n").map { kept.index(after: $0) } ?? cut
            outputs[id] = ShellExecution.cutNote + kept[lineStart...]
        }
    }

    /// Sends each line of `text` to those following the output.
    private func send(_ text: String, of id: CommandID) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        for line in lines { followed.send(ControlLogLine(id: id, text: String(line))) }
    }

    /// The output of a command's last attempt, or an empty string.
    func output(of id: CommandID) -> String {
        outputs.withLock { $0[id] } ?? ""
    }
}
