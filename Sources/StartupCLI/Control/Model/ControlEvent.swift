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
