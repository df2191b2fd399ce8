import StartupKit

/// The system is short of memory: modules drop what they can rebuild, such as caches.
///
/// Delivered in reverse dependency order, independent modules concurrently, so a module lets go
/// of what it holds from its dependencies before they trim.
public struct MemoryPressure: LifecycleEvent {
    /// How urgent the shortage is.
    ///
    /// Complete: the two levels the systems report. No case will be added before a major version,
    /// so a `switch` over it may list every case without a `default`.
    public enum Level: Hashable, Sendable {
        /// Memory is getting short; drop what is cheap to rebuild.
        case warning
        /// Memory is critically short; drop everything that can be rebuilt.
        case critical
    }

    /// Reverse dependency order, independent modules concurrently.
    public static var delivery: LifecycleDelivery { .concurrentReverseDependencyOrder }

    /// How urgent the shortage is.
    public let level: Level

    /// Creates the event.
    ///
    /// - Parameter level: How urgent the shortage is.
    public init(level: Level) {
        self.level = level
    }
}
