/// What the commands a worker runs need from their run: the plan and the outputs.
///
/// Each worker has its own instance, so the contexts it creates retain an object no other worker
/// touches; sharing one object between workers made its reference count a contended cache line.
final class WorkerResources: Sendable {
    /// The plan being run.
    let plan: StartupPlan
    /// The outputs of the run's commands.
    let outputs: OutputStore

    init(plan: StartupPlan, outputs: OutputStore) {
        self.plan = plan
        self.outputs = outputs
    }
}
