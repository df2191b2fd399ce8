import StartupKit

/// The captured output of each command's last attempt, kept for grouped printing and for the
/// failures in the summary.
final class CommandOutputs: Sendable {
    private let outputs = Locked<[CommandID: String]>([:])

    /// Records a command's output, replacing an earlier attempt's.
    func record(_ output: String, for id: CommandID) {
        outputs.withLock { $0[id] = output }
    }

    /// The output of a command's last attempt, or an empty string.
    func output(of id: CommandID) -> String {
        outputs.withLock { $0[id] } ?? ""
    }
}
