/// Receives a run's events as they happen, for logging, signposts, progress or traces.
///
/// Events of one run arrive in the order the scheduler decided them, from one delivery task of the
/// run's own, never from the scheduler's path: a slow observer delays the events that follow, never a
/// command's start or its measured duration. Events that arrive together (a busy run, or one with an
/// ``StartupOrchestrator/Options/eventBatchWindow``) are handed to each observer in turn through
/// ``observe(contentsOf:)``, the first observer before the second, and then to the run's event
/// streams. The run's `run()` returns after the observers have seen ``StartupEvent/runFinished(_:)``.
public protocol StartupObserver: Sendable {
    /// Handles one event.
    func observe(_ event: StartupEvent)

    /// Handles events that arrived together, in order. By default each goes to ``observe(_:)``; an
    /// observer that writes each event somewhere can write them all at once.
    func observe(contentsOf events: [StartupEvent])
}

extension StartupObserver {
    /// Hands each event to ``observe(_:)`` in order.
    public func observe(contentsOf events: [StartupEvent]) {
        for event in events { observe(event) }
    }
}
