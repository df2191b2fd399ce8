import StartupKit

/// The application is about to return to the foreground: modules resume, in dependency order,
/// so a module resumes after the modules it uses.
public struct WillEnterForeground: LifecycleEvent {
    /// Dependency order, one module at a time.
    public static var delivery: LifecycleDelivery { .dependencyOrder }

    /// Creates the event.
    public init() {}
}
