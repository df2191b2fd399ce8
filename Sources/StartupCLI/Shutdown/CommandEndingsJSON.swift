import StartupKit
import StartupReporting

/// How stopped commands' processes ended, as `run --format json` adds it to each command of the report that a timeout,
/// Ctrl-C or fail-fast stopped: `"ending"` (`exitedAfterSigterm` or `killed`) and `"killedProcesses"`. Commands that
/// were not stopped are left as they are.
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
        guard case .object(let members) = command,
            case .string(let id)? = members.first(where: { $0.key == "id" })?.value,
            let ending = endings.commandEnding(of: CommandID(id))
        else { return command }
        return .object(members + ShutdownJSON.members(of: ending))
    }
}
