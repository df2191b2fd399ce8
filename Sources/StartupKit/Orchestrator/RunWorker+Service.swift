extension RunWorker {
    /// Runs one attempt of a service: until it is ready (then its dependents may start) or its
    /// attempt ends, and once ready, until it has ended for good, restarting it as its
    /// ``RestartPolicy`` says. Returns the worker's next step.
    func runService(_ job: Job, serve: @escaping @Sendable (StartupContext, ServiceAttempt) async throws -> Void) async -> WorkerStep {
        let clock = scheduler.clock
        if job.delay > .zero, (try? await clock.sleep(job.delay)) == nil {
            return scheduler.attemptEnded(job, outcome: .threw(CancellationError()))
        }
        let command = scheduler.plan.storage.commands[job.position]
        let attempt = ServiceAttempt(id: command.id)
        let context = StartupContext(attempt: job.attempt, index: job.position, run: resources)
        switch await attempt.start(context, serve: serve, timeout: command.options.timeout, clock: clock) {
        case .ended(let outcome):
            return scheduler.attemptEnded(job, outcome: outcome)
        case .ready(let output):
            if command.producesOutput { scheduler.outputs.store(output, at: job.position) }
            let supervisor = ServiceSupervisor(id: command.id, policy: command.options.restart, clock: clock, first: attempt)
            scheduler.serviceReady(job, supervisor: supervisor)
            let resources = resources
            let (endedByItself, final) = await supervisor.superviseUntilEnd { next, restart in
                // A restart's readiness changes nothing for the run: its dependents kept running.
                let context = StartupContext(attempt: job.attempt, restart: restart, index: job.position, run: resources)
                return await next.start(context, serve: serve, timeout: command.options.timeout, clock: clock)
            } announce: { [scheduler] restarting in
                scheduler.serviceRestarting(restarting)
            }
            let step = scheduler.serviceEnded(job, endedByItself: endedByItself)
            supervisor.endRecorded(final)
            return step
        }
    }
}
