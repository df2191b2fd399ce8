import StartupKit

/// The application is about to terminate: modules save what they must, in reverse dependency
/// order. Post it before ``StartupLifecycle/shutdown()``, which then stops the modules.
public struct WillTerminate: LifecycleEvent {
    /// Reverse dependency order, one module at a time.
    public static var delivery: LifecycleDelivery { .reverseDependencyOrder }

    /// Creates the event.
    public init() {}
}
