/// What a task waiting on a run's commands (``StartupRun/wait(for:timeout:)``) is resumed with.
enum WaitOutcome: Sendable {
    /// Every awaited command succeeded.
    case succeeded
    /// This awaited command ended without succeeding.
    case didNotSucceed(CommandID, CommandStatus)
    /// The time was up; what held up each unfinished awaited command.
    case timedOut([StartupWaitError.HoldUp])
    /// The waiting task was cancelled.
    case cancelled
}
