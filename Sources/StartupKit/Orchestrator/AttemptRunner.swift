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
            return await executeAndStore(context)
        }
        if job.delay > .zero {
            do { try await clock.sleep(job.delay) } catch { return .threw(error) }
        }
        guard let timeout else { return await executeAndStore(context) }
        return await TimedAttempt.run(context, timeout: timeout, clock: clock, givesWay: job.givesWay)
    }

    /// Runs the command and keeps its output: the common path, with no result to wrap.
    @inline(__always)
    private static func executeAndStore(_ context: StartupContext) async -> AttemptOutcome {
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

    /// Runs the command: its output, or what it threw (for a race that decides whether to keep it).
    @inline(__always)
    static func execute(_ context: StartupContext) async -> Result<any Sendable, any Error> {
        do {
            return .success(try await context.run.plan.storage.commands[context.index].execute(context))
        } catch {
            return .failure(error)
        }
    }

    /// Keeps the output of an attempt that returned, for dependents, and says how it ended.
    @inline(__always)
    static func store(_ result: Result<any Sendable, any Error>, of context: StartupContext) -> AttemptOutcome {
        switch result {
        case .success(let output):
            if context.run.plan.storage.commands[context.index].producesOutput {
                context.run.outputs.store(output, at: context.index)
            }
            return .succeeded
        case .failure(let error):
            return .threw(error)
        }
    }
}
