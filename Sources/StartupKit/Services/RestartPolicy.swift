/// When a ready service that ends by itself is started again, how often in a run, and after what
/// delay: `RestartPolicy(on: .failure, limit: 5, delay: .milliseconds(500))`.
///
/// A restarted service runs its body again and signals ready again; its dependents keep running
/// meanwhile and are not restarted, and they keep the output of its first readiness. Each restart
/// is reported as a ``StartupEvent/serviceEnded(_:at:)`` whose error carries
/// ``ServiceEndedError/restart``. Once the limit is used up, the next end is handled as without
/// a policy (``StartupOrchestrator/Options/whenAServiceEnds``). Before its first readiness a
/// service is retried by its ``CommandOptions/retry`` policy instead.
public struct RestartPolicy: Sendable, Hashable {
    /// Which ends of a ready service lead to a restart. Cases may be added: a `switch` over it
    /// should have a `default`.
    public enum Condition: Sendable, Hashable {
        /// Its body threw (for `startup`'s services: the process exited with a non-zero status,
        /// was killed by a signal, or failed its liveness check). One that returned is not
        /// restarted.
        case failure
        /// Any end: it threw or returned.
        case exit
    }

    /// Which ends lead to a restart.
    public var condition: Condition
    /// How many restarts the whole run allows; 0 means none.
    public var limit: Int
    /// The delay before the first restart; each later one waits twice as long as the one before,
    /// up to ``maxDelay`` (or `delay` itself, if it is longer).
    public var delay: Duration

    /// The ceiling of the doubled delays: 30 s.
    public static let maxDelay = Duration.seconds(30)

    /// No restarts: a ready service that ends is handled by
    /// ``StartupOrchestrator/Options/whenAServiceEnds`` (the default).
    public static let never = RestartPolicy(limit: 0)

    /// Creates a restart policy.
    ///
    /// - Parameters:
    ///   - condition: `.failure` (default) or `.exit`.
    ///   - limit: Restarts in the whole run; must not be negative. Default 3.
    ///   - delay: The delay before the first restart; must not be negative. Default 1 s.
    public init(on condition: Condition = .failure, limit: Int = 3, delay: Duration = .seconds(1)) {
        precondition(limit >= 0, "a restart limit must not be negative")
        precondition(delay >= .zero, "a restart delay must not be negative")
        self.condition = condition
        self.limit = limit
        self.delay = delay
    }

    /// Whether an end that threw (`failed`) or returned leads to restart number `restart`
    /// (counted from 1).
    public func restarts(afterFailure failed: Bool, restart: Int) -> Bool {
        guard restart <= limit else { return false }
        switch condition {
        case .failure: return failed
        case .exit: return true
        }
    }

    /// The delay before restart number `restart` (counted from 1): ``delay``, doubled for each
    /// restart before it, at most ``maxDelay`` unless ``delay`` itself is longer.
    public func delay(beforeRestart restart: Int) -> Duration {
        guard delay > .zero else { return .zero }
        let ceiling = max(delay, Self.maxDelay)
        var result = delay
        for _ in 1..<max(restart, 1) {
            if result >= ceiling / 2 { return ceiling }
            result *= 2
        }
        return result
    }
}
