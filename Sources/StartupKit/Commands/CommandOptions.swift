/// How the orchestrator treats one command: its priority, whether its failure fails the run,
/// its timeout, its retries, its estimated duration and when it starts; for a service, also its
/// stop timeout and restart policy.
public struct CommandOptions: Sendable, Hashable {
    /// Which ready command starts first when more are ready than there are free slots.
    public var priority: CommandPriority

    /// An optional command may fail without failing the run. Its dependents are still skipped.
    public var isOptional: Bool

    /// The longest one attempt may take; the attempt is cancelled and reported as timed out after it.
    /// `nil` means no limit.
    public var timeout: Duration?

    /// How often, and after what delays, a failed attempt is retried.
    public var retry: RetryPolicy

    /// The expected duration, used for planning and for the critical-path-first order; `nil` if unknown.
    public var estimate: Duration?

    /// Whether the command starts as soon as it can (`.eager`) or only when needed (`.onDemand`).
    public var activation: Activation
    /// For a service: the longest its stop may take at shutdown before it is abandoned; `nil` uses
    /// the shutdown's (``StartupRun/shutdown(modules:stopTimeout:)``). Commands ignore it.
    public var stopTimeout: Duration?
    /// For a service: whether, how often and after what delay it is started again when it ends
    /// by itself after it was ready; ``RestartPolicy/never`` by default. Commands ignore it.
    public var restart: RestartPolicy

    /// Creates options; every parameter has the default a plain command needs. Leave out any
    /// of them, keeping the rest in this order:
    ///
    /// ```swift
    /// CommandOptions(
    ///     priority: .high, isOptional: true, timeout: .seconds(2), retry: .retry(times: 2),
    ///     estimate: .milliseconds(40), activation: .eager)
    /// ```
    public init(
        priority: CommandPriority = .normal,
        isOptional: Bool = false,
        timeout: Duration? = nil,
        retry: RetryPolicy = .none,
        estimate: Duration? = nil,
        activation: Activation = .eager,
        stopTimeout: Duration? = nil,
        restart: RestartPolicy = .never
    ) {
        precondition(timeout.map { $0 > .zero } ?? true, "a command's timeout must be positive")
        precondition(estimate.map { $0 >= .zero } ?? true, "a command's estimate must not be negative")
        precondition(stopTimeout.map { $0 > .zero } ?? true, "a service's stop timeout must be positive")
        self.priority = priority
        self.isOptional = isOptional
        self.timeout = timeout
        self.retry = retry
        self.estimate = estimate
        self.activation = activation
        self.stopTimeout = stopTimeout
        self.restart = restart
    }
}
