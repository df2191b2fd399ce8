import StartupSupport

/// The services of one run: each one's life from its first attempt until it has ended for good
/// (its readiness, its restarts), those that signalled ready, and the run's one shutdown, which
/// stops them.
final class RunServices: Sendable {
    private struct Ready: Sendable {
        /// The supervisors of the services that signalled ready, by position.
        var supervisors: [Int: ServiceSupervisor] = [:]
        /// Whether the shutdown has begun (after which no service restarts).
        var shutdownBegun = false
    }

    /// Guards the services that signalled ready and whether the shutdown has begun.
    private let ready = Locked(Ready())
    /// The run's one shutdown.
    private let shutdownOnce = ShutdownOnce()

    /// Runs one attempt of a service for `scheduler`'s run: until it is ready (then its
    /// dependents may start) or its attempt ends, and once ready, until it has ended for good,
    /// restarting it as its ``RestartPolicy`` says. Returns the worker's next step.
    func run(
        _ job: Job, serve: @escaping @Sendable (StartupContext, ServiceAttempt) async throws -> Void, resources: WorkerResources,
        scheduler: RunScheduler
    ) async -> WorkerStep {
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
            // Known to the shutdown before the run counts it ready, so no shutdown misses it.
            let shutdownBegun = ready.withLock { ready in
                ready.supervisors[job.position] = supervisor
                return ready.shutdownBegun
            }
            if shutdownBegun { supervisor.shutdownBegan() }
            scheduler.serviceReady(job)
            let (endedByItself, final) = await supervisor.superviseUntilEnd { next, restart in
                // A restart's readiness changes nothing for the run: its dependents kept running.
                let context = StartupContext(attempt: job.attempt, restart: restart, index: job.position, run: resources)
                return await next.start(context, serve: serve, timeout: command.options.timeout, clock: clock)
            } announce: { restarting in
                scheduler.serviceRestarting(restarting)
            }
            let step = scheduler.serviceEnded(job, endedByItself: endedByItself)
            supervisor.endRecorded(final)
            return step
        }
    }

    /// The supervisor of the service at `position`, once it has first been ready.
    func supervisor(at position: Int) -> ServiceSupervisor? {
        ready.withLock { $0.supervisors[position] }
    }

    /// Shuts `scheduler`'s run down once: cancels a start-up still going, waits for its report,
    /// then stops every ready service, and every module in `modules` whose command succeeded,
    /// in one walk in reverse dependency order (``ShutdownStops/stopAll(plan:clock:since:started:finished:isolation:)``).
    /// Later and concurrent calls get the first one's report.
    ///
    /// - Precondition: Every key of `modules` is a command of the plan.
    func shutdown(
        modules: [CommandID: any StoppableModule], stopTimeout: Duration, scheduler: RunScheduler
    ) async -> ShutdownReport {
        await shutdownOnce.perform {
            scheduler.shutdownBegan()
            let serving = ready.withLock { ready in
                ready.shutdownBegun = true
                return Array(ready.supervisors.values)
            }
            for supervisor in serving { supervisor.shutdownBegan() }
            let report = await scheduler.report()
            let plan = scheduler.plan
            var stops = modules
            for (position, supervisor) in ready.withLock({ $0.supervisors }) {
                let command = plan.storage.commands[position]
                stops[command.id] = ServiceStop(
                    service: supervisor, attached: modules[command.id], stopTimeout: command.options.stopTimeout)
            }
            return await ShutdownStops(plan: plan, report: report, modules: stops, defaultStopTimeout: stopTimeout)
                .stopAll(plan: plan, clock: scheduler.clock)
        }
    }
}
