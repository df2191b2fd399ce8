import StartupJSON
import StartupKit
import StartupReporting

/// One line a run writes back to a request: any number of `hello`, `line`, `row`, `log` and `event` answers,
/// then one final `ok` or `error`.
package enum ControlAnswer: Equatable, Sendable {
    /// Who the run is: its process id, the protocol version it speaks and its manifest as given.
    case hello(pid: Int32, version: Int, manifest: String)
    /// A line for the client to print (what a restart cost, a shutdown line).
    case line(String)
    /// A command's row (`ps`).
    case row(ControlRow)
    /// A line of a command's output (`logs`).
    case log(ControlLogLine)
    /// A state change (`events`).
    case event(ControlEvent)
    /// The end of the answer: whether what was asked succeeded (the client exits 0, else 1).
    case ok(Bool)
    /// The end of the answer: the request could not be served, why, and the client's exit status.
    case error(String, exit: Int32)

    /// Whether this answer ends the request's answers.
    package var isFinal: Bool {
        switch self {
        case .ok, .error: true
        case .hello, .line, .row, .log, .event: false
        }
    }

    /// The answer as JSON.
    package var json: JSONOutput {
        switch self {
        case .hello(let pid, let version, let manifest):
            .object([("hello", .object([("pid", .integer(Int(pid))), ("version", .integer(version)), ("manifest", .string(manifest))]))])
        case .line(let text): .object([("line", .string(text))])
        case .row(let row): .object([("row", row.json)])
        case .log(let line): .object([("log", .object([("id", .string(line.id.rawValue)), ("text", .string(line.text))]))])
        case .event(let event): .object([("event", event.json)])
        case .ok(let succeeded): .object([("ok", .bool(succeeded))])
        case .error(let message, let exit): .object([("error", .string(message)), ("exit", .integer(Int(exit)))])
        }
    }

    /// The answer's line, line feed included.
    package var line: String { json.text() + "\n" }

    /// The answer in `bytes` (one line, without its line feed), or `nil` when it is none this client knows.
    package static func parse(_ bytes: [UInt8]) -> ControlAnswer? {
        guard case .success(let members) = ControlProtocol.object(bytes) else { return nil }
        if case .bool(let succeeded)? = members["ok"]?.value { return .ok(succeeded) }
        if case .string(let message)? = members["error"]?.value {
            let exit = members["exit"].flatMap { Decode.integer($0.value) }.flatMap { Int32(exactly: $0) } ?? 1
            return .error(message, exit: exit)
        }
        if case .string(let text)? = members["line"]?.value { return .line(text) }
        if case .object(let list)? = members["row"]?.value { return ControlRow(json: ControlMembers(list)).map { .row($0) } }
        if case .object(let list)? = members["event"]?.value {
            return ControlEvent(json: ControlMembers(list)).map { .event($0) }
        }
        if case .object(let list)? = members["log"]?.value {
            let log = ControlMembers(list)
            guard case .string(let id)? = log["id"]?.value, case .string(let text)? = log["text"]?.value else { return nil }
            return .log(ControlLogLine(id: CommandID(id), text: text))
        }
        if case .object(let list)? = members["hello"]?.value {
            let hello = ControlMembers(list)
            guard let pid = hello["pid"].flatMap({ Decode.integer($0.value) }).flatMap({ Int32(exactly: $0) }),
                let version = hello["version"].flatMap({ Decode.integer($0.value) })
            else { return nil }
            let manifest: String
            if case .string(let text)? = hello["manifest"]?.value { manifest = text } else { manifest = "" }
            return .hello(pid: pid, version: version, manifest: manifest)
        }
        return nil
    }
}

/// Reading the values of answers.
enum Decode {
    /// A whole number, or `nil`.
    static func integer(_ value: JSONValue) -> Int? {
        if case .number(let number) = value { return number.integerValue }
        return nil
    }

    /// A string, `nil` for `null`, or `.some(nil)` when it is neither (wrong).
    static func optionalText(_ value: JSONValue?) -> String?? {
        switch value {
        case nil, .null?: .some(nil)
        case .string(let text)?: .some(text)
        default: nil
        }
    }

    /// A whole number, `nil` for `null`, or `.some(nil)` when it is neither (wrong).
    static func optionalInteger(_ value: JSONValue?) -> Int?? {
        switch value {
        case nil, .null?: .some(nil)
        case .number(let number)?: number.integerValue.map { .some($0) }
        default: nil
        }
    }
}

extension ControlRow {
    /// The row as `ps --format json` and the protocol write it: `{"id", "kind", "state", "pid", "sinceMs",
    /// "readyMs", "restarts", "lastCheck"}`.
    package var json: JSONOutput {
        .object([
            ("id", .string(id.rawValue)), ("kind", .string(kind.rawValue)), ("state", .string(state.rawValue)),
            ("pid", pid.map { .integer(Int($0)) } ?? .null), ("sinceMs", .integer(sinceMs)),
            ("readyMs", readyMs.map { .integer($0) } ?? .null),
            ("restarts", .integer(restarts)), ("lastCheck", lastCheck.map { .string($0) } ?? .null),
        ])
    }

    /// The row in `members`, or `nil` when a member is missing or wrong.
    init?(json members: ControlMembers) {
        guard case .string(let id)? = members["id"]?.value,
            case .string(let kindWord)? = members["kind"]?.value, let kind = Kind(rawValue: kindWord),
            case .string(let stateWord)? = members["state"]?.value, let state = CommandState(rawValue: stateWord),
            let pid = Decode.optionalInteger(members["pid"]?.value),
            let sinceMs = members["sinceMs"].flatMap({ Decode.integer($0.value) }),
            let readyMs = Decode.optionalInteger(members["readyMs"]?.value),
            let restarts = members["restarts"].flatMap({ Decode.integer($0.value) }),
            let lastCheck = Decode.optionalText(members["lastCheck"]?.value)
        else { return nil }
        self.init(
            id: CommandID(id), kind: kind, state: state, pid: pid.flatMap { Int32(exactly: $0) }, sinceMs: sinceMs, readyMs: readyMs,
            restarts: restarts, lastCheck: lastCheck)
    }
}

extension ControlEvent {
    /// The event as `startup events` prints it: `{"atMs", "id", "state", ...}`, the extra members in order.
    package var json: JSONOutput {
        var members: [(key: String, value: JSONOutput)] = [
            ("atMs", .integer(atMs)), ("id", id.map { .string($0.rawValue) } ?? .null), ("state", .string(state)),
        ]
        for field in fields where !["atMs", "id", "state"].contains(field.name) {
            let value: JSONOutput =
                switch field.value {
                case .string(let text): .string(text)
                case .integer(let number): .integer(number)
                case .strings(let texts): .array(texts.map { .string($0) })
                }
            members.append((field.name, value))
        }
        return .object(members)
    }

    /// The event in `members`, or `nil` when `atMs`, `id` or `state` is missing or wrong; extra members that
    /// are neither a string, a whole number nor an array of strings are left out.
    init?(json members: ControlMembers) {
        guard let atMs = members["atMs"].flatMap({ Decode.integer($0.value) }), let id = Decode.optionalText(members["id"]?.value),
            case .string(let state)? = members["state"]?.value
        else { return nil }
        self.init(atMs: atMs, id: id.map { CommandID($0) }, state: state)
        for member in members.all where !["atMs", "id", "state"].contains(member.key) {
            switch member.value {
            case .string(let text): fields.append(ControlEventField(member.key, .string(text)))
            case .number(let number):
                if let integer = number.integerValue { fields.append(ControlEventField(member.key, .integer(integer))) }
            case .array(let elements):
                let texts = elements.compactMap { element -> String? in
                    if case .string(let text) = element.value { return text }
                    return nil
                }
                if texts.count == elements.count { fields.append(ControlEventField(member.key, .strings(texts))) }
            default: break
            }
        }
    }
}
