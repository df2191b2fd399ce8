import StartupKit

/// The part of an application that lives on after start-up, attached to the start-up command
/// that sets it up: it receives the lifecycle events it subscribes to and is stopped at
/// shutdown, after every module that depends on it.
///
/// A module is usually an object the app creates before start-up; its command starts it, and
/// ``StartupLifecycle`` delivers its events and stops it later:
///
/// ```swift
/// actor ImageCache: LifecycleModule {
///     nonisolated var subscriptions: [LifecycleSubscription] {
///         [.on(MemoryPressure.self) { [self] _ in await self.trim() }]
///     }
///     func stop() async throws { try await flush() }
/// }
/// ```
///
/// A module whose command did not succeed at start-up (failed, timed out, skipped or cancelled)
/// receives no event and is not stopped. Its `StoppableModule.stopTimeout` defaults to
/// ``StartupLifecycle/Options/stopTimeout``; a run's shutdown stops it too
/// (`StartupRun.shutdown(modules:stopTimeout:)`).
public protocol LifecycleModule: StoppableModule {
    /// The events and requests this module handles; read once, when the ``StartupLifecycle`` is
    /// created. None by default. Several subscriptions to one event type are called in the order
    /// listed, as one call.
    var subscriptions: [LifecycleSubscription] { get }
}

extension LifecycleModule {
    /// No subscriptions.
    public var subscriptions: [LifecycleSubscription] { [] }

    /// Nothing to release.
    public func stop() async throws {}
}
