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
/// receives no event and is not stopped.
public protocol LifecycleModule: Sendable {
    /// The events and requests this module handles; read once, when the ``StartupLifecycle`` is
    /// created. None by default. Several subscriptions to one event type are called in the order
    /// listed, as one call.
    var subscriptions: [LifecycleSubscription] { get }

    /// The longest ``stop()`` may take before it is cancelled and reported as timed out; `nil`
    /// (the default) uses ``StartupLifecycle/Options/stopTimeout``. Must be positive.
    var stopTimeout: Duration? { get }

    /// Releases what the module holds, at shutdown. Does nothing by default.
    ///
    /// It is called once every module that depends on this one has stopped (or failed or timed
    /// out stopping). It should return promptly when its task is cancelled.
    ///
    /// - Throws: Any error; the shutdown report records it and the shutdown goes on.
    func stop() async throws
}

extension LifecycleModule {
    /// No subscriptions.
    public var subscriptions: [LifecycleSubscription] { [] }

    /// The lifecycle's default stop timeout.
    public var stopTimeout: Duration? { nil }

    /// Nothing to release.
    public func stop() async throws {}
}
