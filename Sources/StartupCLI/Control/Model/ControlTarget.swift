import StartupKit

/// What a run that stays up answers to its control socket (``ControlServer``): the run's side of `startup ps`,
/// `restart`, `stop`, `start`, `logs`, `down` and `events`. Ids a request names are checked against ``rows()``
/// before any other method is called: the methods get only ids of the run.
package protocol ControlTarget: Sendable {
    /// Every command of the run in plan order: `ps`, and the ids a request may name.
    func rows() async -> [ControlRow]
    /// Restarts each (a service: graceful stop, start, readiness; a one-shot command: runs again); with
    /// `cascade`, then its running dependents in dependency order. `say` gets the lines the client prints (what
    /// it cost). Returns whether each is ready/succeeded again.
    func restart(_ ids: [CommandID], cascade: Bool, say: @escaping @Sendable (String) -> Void) async -> Bool
    /// Stops each by hand (with `cascade`, its running dependents first, in reverse order). Returns whether
    /// every stop succeeded.
    func stop(_ ids: [CommandID], cascade: Bool, say: @escaping @Sendable (String) -> Void) async -> Bool
    /// Starts each again (with what it needs that is not up); also an on-demand command nothing asked for yet.
    func start(_ ids: [CommandID], say: @escaping @Sendable (String) -> Void) async -> Bool
    /// Shuts the run down as Ctrl-C would; `say` gets the shutdown lines; returns false if a stop failed.
    func down(say: @escaping @Sendable (String) -> Void) async -> Bool
    /// The kept output of each (all commands when `ids` is empty), at most `lines` last lines each, in order.
    func logs(_ ids: [CommandID], lines: Int?) async -> [ControlLogLine]
    /// New output of each (all commands when `ids` is empty) from now on, until the run ends (the stream
    /// finishes then).
    func followLogs(_ ids: [CommandID]) -> AsyncStream<ControlLogLine>
    /// Every state change from now on, until the run ends (the stream finishes then).
    func events() -> AsyncStream<ControlEvent>
}
