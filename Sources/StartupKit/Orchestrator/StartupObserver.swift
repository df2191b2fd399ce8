/// Receives a run's events as they happen, for logging, signposts, progress or traces.
///
/// Events of one run arrive one at a time, in order, from the orchestrator's task. Keep
/// `observe` quick: the orchestrator waits for it before it starts the next command.
public protocol StartupObserver: Sendable {
    /// Handles one event.
    func observe(_ event: StartupEvent)
}
