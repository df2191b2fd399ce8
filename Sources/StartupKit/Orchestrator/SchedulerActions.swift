/// What ``RunScheduler`` carries out after a ``SchedulerStateMachine`` input, once it has left
/// the lock: resumptions first, then what the owner must do.
struct SchedulerActions<Worker, Listener, Waiter, Reader> {
    /// Parked workers to resume, each with its next step (`.run` or `.exit`).
    var resume: [(Worker, WorkerStep)] = []
    /// The waiting listener and what to hand it: events, or `nil` for the end.
    var deliver: (Listener, [StartupEvent]?)?
    /// Held-back events are due at this run time: flush them then (``EventMailbox``).
    var flushEvents: Duration?
    /// Waiting tasks to resume, each with how its wait ended.
    var resolve: [(Waiter, WaitOutcome)] = []
    /// Tasks waiting for the report, and the report just made.
    var report: (readers: [Reader], report: StartupReport)?
    /// The owner adds one more worker.
    var spawnWorker = false
    /// The owner cancels every worker's attempt (fail-fast).
    var cancelWorkers = false
    /// The run settled (nothing runs, nothing it wants is left): the owner makes the report.
    var settled = false
    /// A service ended by itself and the run's policy asks for the shutdown.
    var shutDown = false
    /// The run is over and closed: the owner's work is done.
    var finished = false
}
