import StartupKit
import StartupReporting

/// How stopped commands' processes ended, as `run --format json` writes it into each command of the report that a
/// timeout, Ctrl-C or fail-fast stopped: `"ending"` (`exitedAfterSigterm` or `killed`) and `"killedProcesses"`; and,
/// for a service whose time to ready ran out, `"notReady"`: what its probe last saw. Other commands get nothing.
enum CommandEndingsJSON {
    /// The members written after command `id`'s own.
    static func members(of id: CommandID, endings: ProcessEndings) -> [(key: String, value: JSONOutput)] {
        let ending = endings.commandEnding(of: id).map(ShutdownJSON.members(of:)) ?? []
        let notReady = endings.notReadySentence(of: id).map { [(key: "notReady", value: JSONOutput.string($0))] } ?? []
        return ending + notReady
    }
}
