/// What the commands a worker runs need from their run: the plan, the outputs, how long a
/// timed-out attempt has to return after its cancellation, the blocking pool and the tracer.
///
/// Each worker has its own instance, so the contexts it creates retain an object no other worker
/// touches: one object shared by every worker would make its reference count a cache line that
/// all of them write to.
final class WorkerResources: Sendable {
    /// The plan being run.
    let plan: StartupPlan
    /// The outputs of the run's commands.
    let outputs: OutputStore
    /// How long a timed-out attempt has to return after its cancellation before it is abandoned.
    let cancellationGrace: Duration
    /// The run's threads for blocking commands; `nil` when the plan has none.
    let blockingPool: ThreadPool?
    /// Called around every attempt, on the thread that runs it.
    let tracer: (any StartupTracer)?

    init(
        plan: StartupPlan, outputs: OutputStore, cancellationGrace: Duration, blockingPool: ThreadPool?, tracer: (any StartupTracer)?
    ) {
        self.plan = plan
        self.outputs = outputs
        self.cancellationGrace = cancellationGrace
        self.blockingPool = blockingPool
        self.tracer = tracer
    }
}
