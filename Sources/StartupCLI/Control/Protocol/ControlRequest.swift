import StartupJSON
import StartupKit
import StartupReporting
import StartupSupport

/// One request to a run's control socket: `{"version": 1, "op": "restart", "ids": ["api"], "cascade": true}`.
package enum ControlRequest: Equatable, Sendable {
    /// Who the run is: answers `{"hello": {"pid", "version", "manifest"}}`.
    case hello
    /// Every command's row.
    case ps
    /// Restart these (``ControlTarget/restart(_:cascade:say:)``).
    case restart([CommandID], cascade: Bool)
    /// Stop these by hand.
    case stop([CommandID], cascade: Bool)
    /// Start these again.
    case start([CommandID])
    /// Their kept output (all commands' for none), at most `lines` last lines each; with `follow`, then their new
    /// output until the run ends.
    case logs([CommandID], lines: Int?, follow: Bool)
    /// Shut the run down.
    case down
    /// Every state change from now on.
    case events

    /// The operation's name in the protocol.
    package var operation: String {
        switch self {
        case .hello: "hello"
        case .ps: "ps"
        case .restart: "restart"
        case .stop: "stop"
        case .start: "start"
        case .logs: "logs"
        case .down: "down"
        case .events: "events"
        }
    }

    /// The operations, for messages.
    static let operations = ["hello", "ps", "restart", "stop", "start", "logs", "down", "events"]

    /// The ids the request names.
    package var ids: [CommandID] {
        switch self {
        case .restart(let ids, _), .stop(let ids, _), .start(let ids), .logs(let ids, _, _): ids
        case .hello, .ps, .down, .events: []
        }
    }

    /// Whether the answer goes on until the run ends (`logs -f`, `events`): a client that leaves ends it.
    var isStream: Bool {
        switch self {
        case .events, .logs(_, _, follow: true): true
        default: false
        }
    }

    /// The request as JSON.
    package var json: JSONOutput {
        var members: [(key: String, value: JSONOutput)] = [("version", .integer(ControlProtocol.version)), ("op", .string(operation))]
        let ids = JSONOutput.array(ids.map { .string($0.rawValue) })
        switch self {
        case .hello, .ps, .down, .events: break
        case .restart(_, let cascade), .stop(_, let cascade): members += [("ids", ids), ("cascade", .bool(cascade))]
        case .start: members.append(("ids", ids))
        case .logs(_, let lines, let follow):
            members += [("ids", ids), ("lines", lines.map { .integer($0) } ?? .null), ("follow", .bool(follow))]
        }
        return .object(members)
    }

    /// The request's line, line feed included.
    package var line: String { json.text() + "\n" }

    /// The request in `bytes` (one line, without its line feed), or why it cannot be served. Unknown members
    /// are ignored, so a newer client's extras do not break an older run.
    package static func parse(_ bytes: [UInt8]) -> Result<ControlRequest, ControlProtocolError> {
        let members: ControlMembers
        switch ControlProtocol.object(bytes) {
        case .success(let object): members = object
        case .failure(let error): return .failure(error)
        }
        guard case .number(let number)? = members["version"]?.value, let version = number.integerValue else {
            return .failure(ControlProtocolError("missing \"version\": send {\"version\": \(ControlProtocol.version), \"op\": ...}"))
        }
        guard version == ControlProtocol.version else {
            return .failure(
                ControlProtocolError("unsupported protocol version \(number.text); this run speaks version \(ControlProtocol.version)"))
        }
        guard case .string(let operation)? = members["op"]?.value else {
            return .failure(ControlProtocolError("missing \"op\", one of " + operations.joined(separator: ", ")))
        }
        func flag(_ key: String) -> Result<Bool, ControlProtocolError> {
            switch members[key]?.value {
            case nil, .null?: .success(false)
            case .bool(let value)?: .success(value)
            case let value?: .failure(ControlProtocolError("\"\(key)\" must be true or false, not \(value.kindName)"))
            }
        }
        func ids(required: Bool) -> Result<[CommandID], ControlProtocolError> {
            let list: [JSONElement]
            switch members["ids"]?.value {
            case nil, .null?: list = []
            case .array(let elements)?: list = elements
            case let value?: return .failure(ControlProtocolError("\"ids\" must be an array of strings, not \(value.kindName)"))
            }
            var ids: [CommandID] = []
            for element in list {
                guard case .string(let id) = element.value, !id.isEmpty else {
                    return .failure(ControlProtocolError("\"ids\" must hold non-empty strings, not \(element.value.kindName)"))
                }
                ids.append(CommandID(id))
            }
            if required, ids.isEmpty { return .failure(ControlProtocolError("\(operation) needs at least one id in \"ids\"")) }
            return .success(ids)
        }
        do {
            switch operation {
            case "hello": return .success(.hello)
            case "ps": return .success(.ps)
            case "down": return .success(.down)
            case "events": return .success(.events)
            case "restart": return .success(.restart(try ids(required: true).get(), cascade: try flag("cascade").get()))
            case "stop": return .success(.stop(try ids(required: true).get(), cascade: try flag("cascade").get()))
            case "start": return .success(.start(try ids(required: true).get()))
            case "logs":
                var lines: Int?
                switch members["lines"]?.value {
                case nil, .null?: break
                case .number(let number)? where (number.integerValue ?? -1) >= 0: lines = number.integerValue
                case let value?:
                    return .failure(ControlProtocolError("\"lines\" must be a whole number from 0, not \(ControlRequest.describe(value))"))
                }
                return .success(.logs(try ids(required: false).get(), lines: lines, follow: try flag("follow").get()))
            default:
                let hint = IdentifierSuggestion.closest(to: operation, in: operations).map { " (did you mean \"\($0)\"?)" } ?? ""
                return .failure(
                    ControlProtocolError(
                        "unknown operation \(MessageQuoting.quoted(operation))\(hint); the operations are "
                            + operations.joined(separator: ", ")))
            }
        } catch {
            return .failure(error)
        }
    }

    /// A value as a message shows it: a number as written, else its kind.
    private static func describe(_ value: JSONValue) -> String {
        if case .number(let number) = value { return number.text }
        return value.kindName
    }
}
