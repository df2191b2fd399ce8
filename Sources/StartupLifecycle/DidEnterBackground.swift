import StartupKit

/// The application moved to the background: modules pause, in reverse dependency order, so a
/// module pauses before the modules it uses.
public struct DidEnterBackground: LifecycleEvent {
    /// Reverse dependency order, one module at a time.
    public static var delivery: LifecycleDelivery { .reverseDependencyOrder }

    /// Creates the event.
    public init() {}
}
