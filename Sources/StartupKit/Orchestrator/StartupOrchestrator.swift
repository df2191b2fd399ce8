/// Runs a ``StartupPlan``: every command starts the moment its last dependency has succeeded,
/// independent commands run concurrently, and the run ends with a ``StartupReport``.
///
/// ```swift
/// let report = await StartupOrchestrator(plan, options: .init(maxConcurrency: 8)).run()
/// print(report.criticalPath)
/// ```
public struct StartupOrchestrator: Sendable {
    /// How a run behaves: slots, failure policy, observers, the blocking pool and the tracer.
    public struct Options: Sendable {
        /// The most commands running at once, blocking ones included; `nil` for no limit (the
        /// graph's own width).
        public var maxConcurrency: Int?
        /// The most threads of the run's blocking pool, which runs the blocking commands
        /// (``BlockingStartupCommand``): the most blocking commands at once. The pool starts
        /// empty, grows only while blocking commands are ready and every thread is busy, and its
        /// idle threads end. At least 1; ``defaultBlockingThreads`` by default.
        public var blockingThreads: Int {
            didSet { precondition(blockingThreads > 0, "blockingThreads must be at least 1") }
        }
        /// The default of ``blockingThreads``: enough for the SDK initialisers of a large app to
        /// block at once, since they mostly wait (disk, keychain, locks) rather than compute.
        public static let defaultBlockingThreads = 16
        /// Called on the thread that runs each attempt, just before and just after it
        /// (``StartupTracer``); `nil` for none.
        public var tracer: (any StartupTracer)?
        /// Whether a required failure stops everything or only the failed command's dependents.
        public var failurePolicy: FailurePolicy
        /// Receive every event of the run, in order.
        public var observers: [any StartupObserver]
        /// How long an attempt that timed out has, after its cancellation, to return before the
        /// run goes on without it (it is then reported abandoned). By the run's clock.
        public var cancellationGrace: Duration
        /// What the run does when a service ends by itself after it was ready: shut down
        /// (the default) or keep running.
        public var whenAServiceEnds: ServiceEndPolicy
        /// How long events may wait to be delivered together. Zero (the default) delivers each
        /// scheduling decision's events at once; a window such as 20 ms delivers in batches, at
        /// most one per window, which saves a busy run a wake-up of the observers' task per
        /// command. The run's end and a service ending by itself are delivered at once. By the
        /// run's clock; at most an hour (a longer window is taken as an hour).
        public var eventBatchWindow: Duration {
            didSet { eventBatchWindow = Self.checkedBatchWindow(eventBatchWindow) }
        }
        /// The longest ``eventBatchWindow``.
        public static let longestEventBatchWindow = Duration.seconds(3_600)

        /// Creates options.
        ///
        /// - Parameters:
        ///   - maxConcurrency: The most commands at once, at least 1; `nil` for no limit.
        ///   - failurePolicy: `.continueIndependent` (default) or `.failFast`.
        ///   - observers: Receive the run's events.
        ///   - cancellationGrace: How long a timed-out attempt may take to return once cancelled
        ///     before it is abandoned; 100 ms by default.
        ///   - whenAServiceEnds: `.shutDown` (default) or `.keepRunning`.
        ///   - eventBatchWindow: How long events may wait to be delivered together; zero (default)
        ///     for at once, at most an hour.
        ///   - blockingThreads: The most threads for blocking commands, at least 1.
        ///   - tracer: Called around every attempt, on the thread that runs it.
        public init(
            maxConcurrency: Int? = nil, failurePolicy: FailurePolicy = .continueIndependent,
            observers: [any StartupObserver] = [], cancellationGrace: Duration = .milliseconds(100),
            whenAServiceEnds: ServiceEndPolicy = .shutDown, eventBatchWindow: Duration = .zero,
            blockingThreads: Int = defaultBlockingThreads, tracer: (any StartupTracer)? = nil
        ) {
            precondition(maxConcurrency.map { $0 > 0 } ?? true, "maxConcurrency must be at least 1")
            precondition(blockingThreads > 0, "blockingThreads must be at least 1")
            self.blockingThreads = blockingThreads
            self.tracer = tracer
            precondition(cancellationGrace >= .zero, "cancellationGrace must not be negative")
            self.maxConcurrency = maxConcurrency
            self.failurePolicy = failurePolicy
            self.observers = observers
            self.cancellationGrace = cancellationGrace
            self.whenAServiceEnds = whenAServiceEnds
            self.eventBatchWindow = Self.checkedBatchWindow(eventBatchWindow)
        }

        /// `window`, at most ``longestEventBatchWindow``: a clock cannot sleep for any duration at all
        /// (a timer past the year 2^63 seconds traps). Set in the initializer or later alike.
        private static func checkedBatchWindow(_ window: Duration) -> Duration {
            precondition(window >= .zero, "eventBatchWindow must not be negative")
            return min(window, longestEventBatchWindow)
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

    /// Starts a run and returns its handle at once: wait for part of it, read outputs, open
    /// gates, request on-demand commands, read its events, cancel it, get its report.
    ///
    /// ```swift
    /// let run = StartupOrchestrator(plan).start()
    /// try await run.wait(for: [FirstScreen.id], timeout: .milliseconds(400))
    /// ```
    ///
    /// The run goes on by itself in a task of its own; dropping the handle does not stop it (but
    /// a gate nobody can open any more cancels it).
    public func start() -> StartupRun {
        start { scheduler in Task { await scheduler.drive() } }
    }

    /// ``start()``, with the run's commands preferring `executor` (the CLI's process engine, so
    /// scheduling and spawning share one thread). Events are still delivered elsewhere.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    package func start(preferring executor: any TaskExecutor) -> StartupRun {
        start { scheduler in Task(executorPreference: executor) { await scheduler.drive() } }
    }

    private func start(driving: (RunScheduler) -> Task<Void, Never>) -> StartupRun {
        let scheduler = RunScheduler(plan: plan, options: options, clock: clock.started(), recordsEvents: true, opensGates: false)
        // Begun before the handle is returned, so whatever the caller does next finds it running.
        scheduler.begin(cancelled: false)
        _ = driving(scheduler)
        return StartupRun(scheduler: scheduler)
    }

    /// Runs every command of the plan that is not on demand (and what they need) once, each as
    /// soon as its dependencies have succeeded, and returns the report: ``start()`` then
    /// ``StartupRun/report()``, with every gate open from the start.
    ///
    /// Cancelling the calling task cancels the commands in flight, starts nothing more, and still
    /// returns the report, with status `.cancelled`. A run may be repeated; each has its own outputs.
    /// It returns after the observers have seen ``StartupEvent/runFinished(_:)``.
    ///
    /// Services (``StartupService``) keep serving after the start-up: `run()` returns once they
    /// have ended, when one ends by itself (``Options/whenAServiceEnds``) or when the calling task
    /// is cancelled, which then stops them all in reverse dependency order. To keep a handle and
    /// a shutdown report, use ``start()`` and ``StartupRun/shutdown(modules:stopTimeout:)``.
    ///
    /// Commands run inline in a pool of worker tasks that grows, one worker at a time, while
    /// commands are ready and no worker is free, so a command that suspends never holds up
    /// another, and commands that do not suspend cost no task of their own.
    ///
    /// - Complexity: O((commands + edges) log commands) scheduling work, plus the commands' own.
    public func run() async -> StartupReport {
        let scheduler = RunScheduler(
            plan: plan, options: options, clock: clock.started(),
            recordsEvents: !options.observers.isEmpty, opensGates: true)
        // Nothing can be requested or opened: no handle escapes. The run ends when it settles.
        scheduler.close()
        scheduler.begin(cancelled: Task.isCancelled)
        await scheduler.drive()
        return scheduler.finalReport
    }
}
