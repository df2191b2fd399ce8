/// What the commands a worker runs need from their run: the plan, the outputs, and how long a
/// timed-out attempt has to return after its cancellation.
///
/// Each worker has its own instance, so the contexts it creates retain an object no other worker
/// touches; sharing one object between workers made its reference count a contended cache line.
final class WorkerResources: Sendable {
    /// The plan being run.
    let plan: StartupPlan
    /// The outputs of the run's commands.
    let outputs: OutputStore
    /// How long a timed-out attempt has to return after its cancellation before it is abandoned.
    let cancellationGrace: Duration

    init(plan: StartupPlan, outputs: OutputStore, cancellationGrace: Duration) {
        self.plan = plan
        self.outputs = outputs
        self.cancellationGrace = cancellationGrace
    }
}
