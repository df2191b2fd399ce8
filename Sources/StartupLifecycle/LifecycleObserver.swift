import StartupKit

/// Receives what a ``StartupLifecycle`` does after launch (deliveries, requests, shutdown), with
/// timings, for logging, signposts or traces.
///
/// This is a protocol of its own rather than new cases of `StartupEvent`, for two reasons.
/// `StartupEvent` is a public enum that apps (and the `startup` CLI) switch over exhaustively,
/// so new cases would break their builds. And `StartupObserver` promises the events of one run,
/// in order, from one task, while lifecycle activity goes on for the life of the app, started by
/// any number of callers. An app that wants one log conforms one type to both protocols; both use
/// offsets (`StartupEvent` from the start of the run, ``LifecycleActivity`` from the creation of
/// the lifecycle).
///
/// Activities arrive one at a time, from the lifecycle's actor, and those of one delivery,
/// request or shutdown in order. Keep `observe` quick: the lifecycle waits for it.
public protocol LifecycleObserver: Sendable {
    /// Handles one activity.
    func observe(_ activity: LifecycleActivity)
}
