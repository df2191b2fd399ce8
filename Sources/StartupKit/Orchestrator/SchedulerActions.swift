/// What ``RunScheduler`` carries out after a ``SchedulerStateMachine`` input, once it has left
/// the lock: resumptions first, then what the owner must do.
struct SchedulerActions<Worker, Listener> {
    /// Parked workers to resume, each with its next step (`.run` or `.exit`).
    var resume: [(Worker, WorkerStep)] = []
    /// The waiting listener and what to hand it: events, or `nil` for the end.
    var deliver: (Listener, [StartupEvent]?)?
    /// The owner adds one more worker.
    var spawnWorker = false
    /// The owner cancels every worker's attempt (fail-fast).
    var cancelWorkers = false
    /// Every command has ended: the owner may make the report.
    var runEnded = false
}
