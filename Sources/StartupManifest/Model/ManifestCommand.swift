import StartupKit

/// One command of a manifest, as written in `commands.json`.
public struct ManifestCommand: Sendable, Hashable {
    /// The command's identifier (`"id"`).
    public var id: CommandID
    /// A human description (`"summary"`).
    public var summary: String?
    /// The commands that must succeed first (`"dependencies"`).
    public var dependencies: [CommandID]
    /// The commands it runs after if they run, whatever their outcome (`"after"`): order-only
    /// edges, which wait for a command that is in the plan and will run, and require nothing of
    /// it. A command outside the selected targets, or on demand and not wanted, is not waited for.
    public var after: [CommandID]
    /// The shell line `startup run` executes (`"run"`); `nil` for a milestone, which succeeds as
    /// soon as its dependencies have.
    public var run: String?
    /// The expected duration (`"estimate"`), used by `startup plan` and for ordering.
    public var estimate: Duration?
    /// The longest the command should take (`"budget"`); a run that takes longer is over budget.
    /// `nil` for no budget.
    public var budget: Duration?
    /// The longest one attempt may take (`"timeout"`); `nil` to inherit the default.
    public var timeout: Duration?
    /// Retries after a failed attempt (`"retries"`); `nil` to inherit the default.
    public var retries: Int?
    /// Whether the run may succeed even if this command fails (`"optional"`).
    public var isOptional: Bool
    /// Whether the command runs only when something that runs needs it, or when it is named as a
    /// target (`"onDemand"`); `false` runs it as soon as its dependencies have succeeded.
    public var isOnDemand: Bool
    /// Which ready command starts first when slots are short (`"priority"`).
    public var priority: CommandPriority
    /// Environment variables added for this command (`"env"`).
    public var environment: [String: String]
    /// Env files (`KEY=VALUE` lines) whose variables `startup run` adds for this command, relative to the
    /// manifest's folder (`"envFile"`: one path or an array), in order: a later file wins over an earlier one,
    /// the defaults' files come first, and `"env"` wins over every file.
    public var environmentFiles: [String]
    /// The working directory, relative to the manifest's folder (`"cwd"`); `nil` to inherit.
    public var workingDirectory: String?

    /// The shell line that undoes the command at shutdown (`"stop"`), run in reverse dependency
    /// order when the run is shut down.
    public var stop: String?

    /// How long the `stop` line may run before it gets SIGTERM, and SIGKILL after the grace period (`"stopTimeout"`);
    /// `nil` for ``defaultStopTimeout``. The same for every kind of command; the library's
    /// `CommandOptions.stopTimeout` is the same bound for a service's stop.
    public var stopTimeout: Duration?

    /// The bound of a `stop` line that sets no `"stopTimeout"`: 10 seconds, as the library's default stop timeout.
    public static let defaultStopTimeout = Duration.seconds(10)

    /// How the command's readiness is probed (`"ready"`); set, it makes the command a service,
    /// started and kept running, whose dependents start once it is ready.
    public var ready: ManifestReadiness?

    /// For a service: whether, how often and after what delay it is started again when it ends
    /// by itself after it was ready (`"restart"`); `nil` for never.
    public var restart: RestartPolicy?

    /// For a service: how `startup run` checks that it is still alive once ready (`"alive"`);
    /// `nil` for no check.
    public var alive: ManifestLiveness?

    /// What `startup run` watches to reload the command (`"watch"`): a change to a watched file restarts a
    /// service, or runs a one-shot command again, then its running dependents; `nil` for nothing.
    public var watch: ManifestWatch?

    /// Whether the command is a service (it has `"ready"`).
    public var isService: Bool { ready != nil }

    /// Creates a command; only the id is required.
    public init(
        id: CommandID, summary: String? = nil, dependencies: [CommandID] = [], after: [CommandID] = [], run: String? = nil,
        estimate: Duration? = nil, budget: Duration? = nil, timeout: Duration? = nil, retries: Int? = nil, isOptional: Bool = false,
        isOnDemand: Bool = false, priority: CommandPriority = .normal, environment: [String: String] = [:],
        environmentFiles: [String] = [], workingDirectory: String? = nil, stop: String? = nil, ready: ManifestReadiness? = nil,
        restart: RestartPolicy? = nil, alive: ManifestLiveness? = nil, stopTimeout: Duration? = nil, watch: ManifestWatch? = nil
    ) {
        self.id = id
        self.summary = summary
        self.dependencies = dependencies
        self.after = after
        self.run = run
        self.estimate = estimate
        self.budget = budget
        self.timeout = timeout
        self.retries = retries
        self.isOptional = isOptional
        self.isOnDemand = isOnDemand
        self.priority = priority
        self.environment = environment
        self.environmentFiles = environmentFiles
        self.workingDirectory = workingDirectory
        self.stop = stop
        self.ready = ready
        self.restart = restart
        self.alive = alive
        self.stopTimeout = stopTimeout
        self.watch = watch
    }

    /// The StartupKit options of this command, with the manifest's defaults filled in.
    ///
    /// Retries wait 100 ms, then twice as long each time, at most 5 s; `"onDemand": true` makes the
    /// activation `Activation.onDemand`; `"restart"` is the restart policy. A service's timeout is its ready timeout
    /// (``readyTimeout(defaults:)``), as its duration is its time to ready.
    public func options(defaults: ManifestDefaults) -> CommandOptions {
        CommandOptions(
            priority: priority, isOptional: isOptional, timeout: isService ? readyTimeout(defaults: defaults) : timeout ?? defaults.timeout,
            retry: RetryPolicy(maxRetries: retries ?? defaults.retries ?? 0), estimate: estimate,
            activation: isOnDemand ? .onDemand : .eager, restart: restart ?? .never)
    }

    /// The longest a service may take to be ready: the probe's `timeout`, else the command's, else
    /// the defaults', else 30s.
    public func readyTimeout(defaults: ManifestDefaults) -> Duration {
        ready?.timeout ?? timeout ?? defaults.timeout ?? ManifestReadiness.defaultTimeout
    }
}
