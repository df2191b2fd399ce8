/// One attempt of a command, handed to a worker.
struct Job: Sendable, Hashable {
    /// The command's position in the plan.
    let position: Int
    /// The attempt, counted from 1.
    let attempt: Int
    /// How long to wait before the attempt (a retry's backoff).
    let delay: Duration
    /// The command's effective priority value (``ReadyKey/priority``), carried so that the worker
    /// need not read the plan's shared keys (a contended reference count) to learn it.
    var priority = 0
    /// The attempt was handed out while the launch had priority work unfinished (a command of
    /// raised effective priority, or one a task waits for), and its command is neither, nor a
    /// blocking command or a service: it runs on the ``BackgroundExecutor``, not on Swift's
    /// cooperative pool.
    var givesWay = false
}

/// What a worker does next.
enum WorkerStep: Sendable, Hashable {
    /// Run this attempt, inline.
    case run(Job)
    /// Nothing to take now: park until handed a job or told to exit.
    case park
    /// The run needs no more work from this worker.
    case exit
}
