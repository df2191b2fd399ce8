/// How a failed attempt of a command is retried: how many more attempts, and the delay before
/// each, growing by a factor up to a ceiling (exponential backoff).
public struct RetryPolicy: Sendable, Hashable {
    /// How many attempts may follow the first one.
    public var maxRetries: Int

    /// The delay before the first retry.
    public var initialDelay: Duration

    /// The factor applied to the delay after each retry.
    public var multiplier: Double

    /// The longest delay between two attempts.
    public var maxDelay: Duration

    /// Creates a retry policy.
    ///
    /// - Parameters:
    ///   - maxRetries: Attempts after the first; must not be negative.
    ///   - initialDelay: The delay before the first retry.
    ///   - multiplier: Growth of the delay after each retry; at least 1.
    ///   - maxDelay: The ceiling of the delay.
    public init(maxRetries: Int, initialDelay: Duration = .milliseconds(100), multiplier: Double = 2, maxDelay: Duration = .seconds(5)) {
        precondition(maxRetries >= 0, "maxRetries must not be negative")
        precondition(initialDelay >= .zero && maxDelay >= .zero, "retry delays must not be negative")
        precondition(multiplier >= 1, "the backoff multiplier must be at least 1")
        self.maxRetries = maxRetries
        self.initialDelay = initialDelay
        self.multiplier = multiplier
        self.maxDelay = maxDelay
    }

    /// No retries: the first failure is final.
    public static let none = RetryPolicy(maxRetries: 0)

    /// Retries up to `times` more attempts with exponential backoff from `initialDelay`.
    public static func retry(times: Int, initialDelay: Duration = .milliseconds(100)) -> RetryPolicy {
        RetryPolicy(maxRetries: times, initialDelay: initialDelay)
    }

    /// The delay before attempt number `attempt` (2 for the first retry).
    ///
    /// - Parameter attempt: The attempt about to start, counted from 1.
    public func delay(beforeAttempt attempt: Int) -> Duration {
        guard attempt > 1 else { return .zero }
        var delay = initialDelay
        for _ in 0..<(attempt - 2) {
            delay = delay * multiplier
            if delay >= maxDelay { return maxDelay }
        }
        return min(delay, maxDelay)
    }
}
