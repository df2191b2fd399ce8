/// One worker of a run: runs its job inline, reports its end and takes the next, parking when
/// nothing is ready, until the run needs it no more.
struct RunWorker: Sendable {
    let scheduler: RunScheduler
    /// This worker's own (``WorkerResources``).
    let resources: WorkerResources

    /// A worker of `scheduler`'s run.
    init(of scheduler: RunScheduler) {
        self.scheduler = scheduler
        resources = scheduler.makeWorkerResources()
    }

    /// Works until the run needs this worker no more.
    func work() async {
        let plan = scheduler.plan
        let hasServices = plan.storage.hasServices
        var step = scheduler.workerArrived()
        while true {
            switch step {
            case .run(let job):
                if hasServices, let serve = plan.storage.commands[job.position].serve {
                    step = await runService(job, serve: serve)
                    continue
                }
                step = scheduler.attemptEnded(job, outcome: await runMarkedAttempt(job))
            case .park:
                step = await scheduler.park()
            case .exit:
                return
            }
        }
    }

    /// Runs one attempt; on a test clock, marked as an attempt's work (``RunActivity``), so that
    /// the clock counts its sleeps as the attempt's.
    @inline(__always)
    private func runMarkedAttempt(_ job: Job) async -> AttemptOutcome {
        guard scheduler.clock.driving != nil else { return await runAttempt(job) }
        return await RunActivity.$isAttempt.withValue(true) { await runAttempt(job) }
    }

    /// Runs one attempt; one that gives way (``Job/givesWay``) prefers the
    /// ``BackgroundExecutor``, unless the run's tasks prefer an executor of their own.
    @inline(__always)
    private func runAttempt(_ job: Job) async -> AttemptOutcome {
        guard job.givesWay else { return await runPrioritized(job) }
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *), BackgroundExecutor.acceptsCurrentTask else {
            var job = job
            job.givesWay = false  // Nothing gives way, a timed attempt's task included.
            return await runPrioritized(job)
        }
        return await withTaskExecutorPreference(BackgroundExecutor.shared) { await runPrioritized(job) }
    }

    /// Runs one attempt at the task priority of its command's effective priority: inline in the
    /// worker (whose priority is a normal command's), or in a child task of that priority.
    @inline(__always)
    private func runPrioritized(_ job: Job) async -> AttemptOutcome {
        let priority = job.priority
        // The clock is borrowed from the scheduler, not copied: a copy retains its closures'
        // contexts, which every worker shares.
        guard priority != 0 else { return await AttemptRunner.run(job, resources: resources, clock: scheduler.clock) }
        return await withTaskGroup(of: AttemptOutcome.self) { group in
            group.addTask(priority: priority > 0 ? .high : .utility) { [self] in
                await AttemptRunner.run(job, resources: resources, clock: scheduler.clock)
            }
            return await group.next()!
        }
    }
}
