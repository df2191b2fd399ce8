import StartupKit

/// One state change of a run, as `startup events` prints it: `{"atMs", "id", "state", ...}`.
package struct ControlEvent: Sendable, Equatable {
    /// When it happened, in milliseconds since the run started.
    package var atMs: Int
    /// The command it is about; `nil` for the run's own events (a reload).
    package var id: CommandID?
    /// What happened: a ``CommandState`` word, or the run's own (`reloadStarted`, `reloadEnded`).
    package var state: String
    /// More members, in order, after `state` (`exitStatus`, `reload`, `changed`, `wallMs`); a name that is
    /// `atMs`, `id` or `state` is not written.
    package var fields: [ControlEventField]

    /// An event.
    package init(atMs: Int, id: CommandID?, state: String, fields: [ControlEventField] = []) {
        self.atMs = atMs
        self.id = id
        self.state = state
        self.fields = fields
    }
}

/// One extra member of a ``ControlEvent``.
package struct ControlEventField: Sendable, Equatable {
    /// The member's name (camelCase).
    package var name: String
    /// Its value.
    package var value: ControlEventValue

    /// A member.
    package init(_ name: String, _ value: ControlEventValue) {
        self.name = name
        self.value = value
    }
}

/// The value of an extra member of a ``ControlEvent``.
package enum ControlEventValue: Sendable, Equatable {
    case string(String)
    case integer(Int)
    case strings([String])
}
