/// Runs one attempt of a command in a worker: the retry delay, the command under its timeout,
/// and storing its output. Never throws: how the attempt ended is the result.
enum AttemptRunner {
    /// Runs the attempt and reports how it ended.
    ///
    /// Inlined into the worker's loop, so an attempt without delay or timeout (the common case)
    /// costs no async call of its own between the worker and the command.
    @inline(__always)
    static func run(_ job: Job, resources: WorkerResources, clock: StartedClock) async -> AttemptOutcome {
        // Fields are read in place: copying the whole command would retain all of its parts.
        let timeout = resources.plan.storage.commands[job.position].options.timeout
        let context = StartupContext(attempt: job.attempt, index: job.position, run: resources)
        // A first attempt never waits (only retries have a delay), and needs no comparison of
        // durations, which the standard library does not inline.
        if timeout == nil, job.attempt == 1 || job.delay == .zero {
            return await execute(context)
        }
        return await run(context, after: job.delay, timeout: timeout, clock: clock)
    }

    /// The attempt after its retry delay, under its timeout if it has one.
    private static func run(_ context: StartupContext, after delay: Duration, timeout: Duration?,
                            clock: StartedClock) async -> AttemptOutcome {
        if delay > .zero {
            do { try await clock.sleep(delay) } catch { return .threw(error) }
        }
        guard let timeout else { return await execute(context) }
        return await withTaskGroup(of: AttemptOutcome?.self) { group in
            group.addTask { await execute(context) }
            group.addTask {
                do {
                    try await clock.sleep(timeout)
                    return .timedOut(timeout)
                } catch {
                    return nil  // The command finished first, or the run was cancelled.
                }
            }
            var outcome: AttemptOutcome?
            while outcome == nil, let next = await group.next() {
                outcome = next
            }
            group.cancelAll()
            return outcome!
        }
    }

    @inline(__always)
    private static func execute(_ context: StartupContext) async -> AttemptOutcome {
        let position = context.index
        do {
            let commands = context.run.plan.storage.commands
            let output = try await commands[position].execute(context)
            if commands[position].producesOutput { context.run.outputs.store(output, at: position) }
            return .succeeded
        } catch {
            return .threw(error)
        }
    }
}
