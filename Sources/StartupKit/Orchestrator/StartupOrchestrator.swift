/// Runs a ``StartupPlan``: every command starts the moment its last dependency has succeeded,
/// independent commands run concurrently, and the run ends with a ``StartupReport``.
///
/// ```swift
/// let report = await StartupOrchestrator(plan, options: .init(maxConcurrency: 8)).run()
/// print(report.criticalPath)
/// ```
public struct StartupOrchestrator: Sendable {
    /// How a run behaves: slots, failure policy and observers.
    public struct Options: Sendable {
        /// The most commands running at once; `nil` for no limit (the graph's own width).
        public var maxConcurrency: Int?
        /// Whether a required failure stops everything or only the failed command's dependents.
        public var failurePolicy: FailurePolicy
        /// Receive every event of the run, in order.
        public var observers: [any StartupObserver]

        /// Creates options.
        ///
        /// - Parameters:
        ///   - maxConcurrency: The most commands at once, at least 1; `nil` for no limit.
        ///   - failurePolicy: `.continueIndependent` (default) or `.failFast`.
        ///   - observers: Receive the run's events.
        public init(maxConcurrency: Int? = nil, failurePolicy: FailurePolicy = .continueIndependent,
                    observers: [any StartupObserver] = []) {
            precondition(maxConcurrency.map { $0 > 0 } ?? true, "maxConcurrency must be at least 1")
            self.maxConcurrency = maxConcurrency
            self.failurePolicy = failurePolicy
            self.observers = observers
        }
    }

    /// The plan this orchestrator runs.
    public let plan: StartupPlan
    /// The options of its runs.
    public let options: Options
    private let clock: RunClock

    /// Creates an orchestrator.
    ///
    /// - Parameters:
    ///   - plan: The commands to run.
    ///   - options: Slots, failure policy, observers.
    ///   - clock: Measures offsets and times timeouts and retry delays.
    public init<C: Clock>(_ plan: StartupPlan, options: Options = Options(), clock: C = ContinuousClock())
    where C.Duration == Duration {
        self.plan = plan
        self.options = options
        self.clock = RunClock(clock)
    }

    /// Runs every command of the plan once, each as soon as its dependencies have succeeded, and
    /// returns the report.
    ///
    /// Cancelling the calling task cancels the commands in flight, starts nothing more, and still
    /// returns the report, with status `.cancelled`. A run may be repeated; each has its own outputs.
    ///
    /// Commands run inline in a pool of worker tasks that grows, one worker at a time, while
    /// commands are ready and no worker is free, so a command that suspends never holds up
    /// another, and commands that do not suspend cost no task of their own.
    ///
    /// - Complexity: O((commands + edges) log commands) scheduling work, plus the commands' own.
    public func run() async -> StartupReport {
        let scheduler = RunScheduler(plan: plan, options: options, clock: clock.started())
        return await withTaskGroup(of: Void.self) { delivery in
            if scheduler.deliversEvents {
                // Never on an executor the run prefers (the CLI runs its commands on its process
                // engine's thread): an observer that blocks must not hold up the commands.
                if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) {
                    delivery.addTask(executorPreference: globalConcurrentExecutor) { await scheduler.deliverEvents() }
                } else {
                    delivery.addTask { await scheduler.deliverEvents() }
                }
            }
            await withTaskGroup(of: Void.self) { workers in
                scheduler.begin(cancelled: Task.isCancelled)
                await withTaskCancellationHandler {
                    messages: for await message in scheduler.ownerMessages {
                        switch message {
                        case .spawnWorker: workers.addTask { await scheduler.work() }
                        case .cancelWorkers: workers.cancelAll()
                        case .runEnded: break messages
                        }
                    }
                } onCancel: {
                    scheduler.cancel()
                }
            }
            // Every worker has returned, so the run has ended (a cancelled owner stops the
            // messages early, but the cancellation ends the run too).
            return scheduler.makeReport()
        }
    }
}
