import StartupKit

/// Something that happens to the application after launch, delivered to every module that
/// subscribes to its type: the app defines its own, and StartupKit ships a few generic ones
/// (``DidEnterBackground``, ``WillEnterForeground``, ``MemoryPressure``, ``WillTerminate``).
///
/// ```swift
/// struct UserDidSignOut: LifecycleEvent {
///     static let delivery = LifecycleDelivery.reverseDependencyOrder
///     let userID: String
/// }
/// await lifecycle.post(UserDidSignOut(userID: "42"))
/// ```
///
/// The event's type decides how it travels through the module graph (``delivery``): in dependency
/// order, so a module sees it after the modules it depends on (the default), or in reverse, for
/// teardown-like events; one module at a time, or independent modules concurrently.
public protocol LifecycleEvent: Sendable {
    /// The order in which subscribers receive events of this type, and whether independent
    /// subscribers may receive one at the same time.
    static var delivery: LifecycleDelivery { get }
}

extension LifecycleEvent {
    /// Dependency order, one subscriber at a time.
    public static var delivery: LifecycleDelivery { .dependencyOrder }
}
