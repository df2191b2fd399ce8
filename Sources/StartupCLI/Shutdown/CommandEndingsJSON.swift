import StartupKit
import StartupReporting

/// How stopped commands' processes ended, as `run --format json` adds it to each command of the report that a timeout,
/// Ctrl-C or fail-fast stopped: `"ending"` (`exitedAfterSigterm` or `killed`) and `"killedProcesses"`; and, for a
/// service whose time to ready ran out, `"notReady"`: what its probe last saw. Other commands are left as they are.
enum CommandEndingsJSON {
    /// `run` with the endings of `endings` added to its commands.
    static func adding(_ endings: ProcessEndings, to run: JSONOutput) -> JSONOutput {
        guard case .object(let members) = run else { return run }
        return .object(
            members.map { member in
                guard member.key == "commands", case .array(let commands) = member.value else { return member }
                return (member.key, .array(commands.map { adding(endings, toCommand: $0) }))
            })
    }

    private static func adding(_ endings: ProcessEndings, toCommand command: JSONOutput) -> JSONOutput {
        guard case .object(let members) = command, case .string(let text)? = members.first(where: { $0.key == "id" })?.value else {
            return command
        }
        let id = CommandID(text)
        let ending = endings.commandEnding(of: id).map(ShutdownJSON.members(of:)) ?? []
        let notReady = endings.notReadySentence(of: id).map { [(key: "notReady", value: JSONOutput.string($0))] } ?? []
        return ending.isEmpty && notReady.isEmpty ? command : .object(members + ending + notReady)
    }
}
