import StartupKit

/// How an event travels through the module graph: in dependency order or its reverse, and one
/// subscriber at a time or independent subscribers concurrently.
///
/// In every delivery a subscriber is called only after every subscriber it depends on, directly
/// or through commands that do not subscribe, has returned (dependency order), or after every
/// subscriber that depends on it has returned (reverse order).
public struct LifecycleDelivery: Hashable, Sendable, CustomStringConvertible {
    private enum Direction: Hashable, Sendable { case dependencies, dependents }
    private let direction: Direction

    /// Whether subscribers that do not depend on each other may be called at the same time.
    public let isConcurrent: Bool

    /// Whether a module receives the event before the modules it depends on (teardown-like
    /// events) instead of after them.
    public var isReversed: Bool { direction == .dependents }

    /// A module receives the event after the modules it depends on, one module at a time, in
    /// the plan's topological order. The default.
    public static let dependencyOrder = LifecycleDelivery(direction: .dependencies, isConcurrent: false)

    /// A module receives the event after the modules that depend on it, one module at a time:
    /// for teardown-like events (going to the background, terminating).
    public static let reverseDependencyOrder = LifecycleDelivery(direction: .dependents, isConcurrent: false)

    /// Like ``dependencyOrder``, but each module is called as soon as the modules it depends on
    /// have returned, so independent modules handle the event concurrently.
    public static let concurrentDependencyOrder = LifecycleDelivery(direction: .dependencies, isConcurrent: true)

    /// Like ``reverseDependencyOrder``, but each module is called as soon as the modules that
    /// depend on it have returned, so independent modules handle the event concurrently.
    public static let concurrentReverseDependencyOrder = LifecycleDelivery(direction: .dependents, isConcurrent: true)

    /// `dependencyOrder`, `reverseDependencyOrder`, `concurrentDependencyOrder` or
    /// `concurrentReverseDependencyOrder`.
    public var description: String {
        switch (direction, isConcurrent) {
        case (.dependencies, false): "dependencyOrder"
        case (.dependents, false): "reverseDependencyOrder"
        case (.dependencies, true): "concurrentDependencyOrder"
        case (.dependents, true): "concurrentReverseDependencyOrder"
        }
    }
}
