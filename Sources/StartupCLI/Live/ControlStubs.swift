// TEMPORARY: the control helper's types, as specified; replaced by the control branch at merge.
import StartupKit
import StartupReporting

protocol ControlTarget: Sendable {
    func rows() async -> [ControlRow]
    func restart(_ ids: [CommandID], cascade: Bool, say: @escaping @Sendable (String) -> Void) async -> Bool
    func stop(_ ids: [CommandID], cascade: Bool, say: @escaping @Sendable (String) -> Void) async -> Bool
    func start(_ ids: [CommandID], say: @escaping @Sendable (String) -> Void) async -> Bool
    func down(say: @escaping @Sendable (String) -> Void) async -> Bool
    func logs(_ ids: [CommandID], lines: Int?) async -> [ControlLogLine]
    func followLogs(_ ids: [CommandID]) -> AsyncStream<ControlLogLine>
    func events() -> AsyncStream<ControlEvent>
}

struct ControlRow: Sendable, Equatable {
    enum Kind: String, Sendable { case command, service }
    var id: CommandID
    var kind: Kind
    var state: CommandState
    var pid: Int32?
    var sinceMs: Int
    var readyMs: Int?
    var restarts: Int
    var lastCheck: String?
}

enum CommandState: String, CaseIterable, Sendable {
    case waiting, starting, ready, running, succeeded, failed, skipped, stopping, stopped, restarting, exited
}

struct ControlLogLine: Sendable, Equatable {
    var id: CommandID
    var text: String
}

enum ControlEventValue: Sendable, Equatable {
    case string(String)
    case int(Int)
    case strings([String])
}

struct ControlEvent: Sendable, Equatable {
    var atMs: Int
    var id: CommandID?
    var state: String
    var fields: [(String, ControlEventValue)]

    static func == (lhs: ControlEvent, rhs: ControlEvent) -> Bool {
        lhs.atMs == rhs.atMs && lhs.id == rhs.id && lhs.state == rhs.state && lhs.fields.map(\.0) == rhs.fields.map(\.0)
            && lhs.fields.map(\.1) == rhs.fields.map(\.1)
    }
}
