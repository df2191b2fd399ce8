/// What one attempt of a command came to.
enum AttemptOutcome: Sendable {
    /// The command returned (its output is already in the run's output store).
    case succeeded
    /// The command threw.
    case threw(any Error)
    /// The command outlived its timeout and was cancelled.
    case timedOut(Duration)
}

/// The result a child task hands back to the orchestrator's loop; child tasks never throw.
struct AttemptResult: Sendable {
    /// The command's position in the plan.
    let position: Int
    /// How the attempt ended.
    let outcome: AttemptOutcome
    /// When it ended, from the start of the run.
    let end: Duration
}

/// Runs one attempt of a command in a child task: the retry delay, the command under its
/// timeout, and storing its output.
enum AttemptRunner {
    /// Runs the attempt and reports how it ended.
    static func run(
        _ command: AnyStartupCommand, position: Int, context: StartupContext,
        delay: Duration, clock: StartedClock
    ) async -> AttemptResult {
        let outcome = await attempt(command, position: position, context: context, delay: delay, clock: clock)
        return AttemptResult(position: position, outcome: outcome, end: clock.elapsed())
    }

    private static func attempt(
        _ command: AnyStartupCommand, position: Int, context: StartupContext,
        delay: Duration, clock: StartedClock
    ) async -> AttemptOutcome {
        if delay > .zero {
            do { try await clock.sleep(delay) } catch { return .threw(error) }
        }
        guard let timeout = command.options.timeout else {
            return await execute(command, position: position, context: context)
        }
        return await withTaskGroup(of: AttemptOutcome?.self) { group in
            group.addTask { await execute(command, position: position, context: context) }
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

    private static func execute(_ command: AnyStartupCommand, position: Int, context: StartupContext) async -> AttemptOutcome {
        do {
            let output = try await command.execute(context)
            if command.producesOutput { context.outputs.store(output, at: position) }
            return .succeeded
        } catch {
            return .threw(error)
        }
    }
}
