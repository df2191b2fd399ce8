import StartupKit

/// One command of a run as `startup ps` lists it.
package struct ControlRow: Sendable, Equatable {
    /// A command or a service (a command with `ready`).
    package enum Kind: String, CaseIterable, Sendable {
        case command, service
    }

    /// The command's id.
    package var id: CommandID
    /// Whether it is a service.
    package var kind: Kind
    /// Its state now.
    package var state: CommandState
    /// The process `startup` started for it, `nil` when none runs.
    package var pid: Int32?
    /// How long it has been in `state`, in milliseconds.
    package var sinceMs: Int
    /// A service's time to ready in its current incarnation, in milliseconds; `nil` for commands and before ready.
    package var readyMs: Int?
    /// How many times it was started again after it first started (by its policy or by hand).
    package var restarts: Int
    /// What the last probe or liveness check saw, if there was one.
    package var lastCheck: String?

    /// A row.
    package init(
        id: CommandID, kind: Kind, state: CommandState, pid: Int32? = nil, sinceMs: Int = 0, readyMs: Int? = nil,
        restarts: Int = 0, lastCheck: String? = nil
    ) {
        self.id = id
        self.kind = kind
        self.state = state
        self.pid = pid
        self.sinceMs = sinceMs
        self.readyMs = readyMs
        self.restarts = restarts
        self.lastCheck = lastCheck
    }
}
