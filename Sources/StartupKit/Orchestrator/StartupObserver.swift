/// Receives a run's events as they happen, for logging, signposts, progress or traces.
///
/// Events of one run arrive one at a time, in the order the scheduler decided them, from one
/// delivery task of the run's own, never from the scheduler's path: a slow observer delays the
/// events that follow, never a command's start or its measured duration. The run's `run()`
/// returns after the observers have seen ``StartupEvent/runFinished(_:)``.
public protocol StartupObserver: Sendable {
    /// Handles one event.
    func observe(_ event: StartupEvent)
}
