/// Something that happened during a run, delivered to observers as it happens, in order.
///
/// Cases are added as StartupKit grows (a minor version may add one): a `switch` over an event
/// should have a `default`, so that code written against this version keeps compiling.
///
/// ```swift
/// func observe(_ event: StartupEvent) {
///     switch event {
///     case .commandFinished(let id, let status, _, _, _): print(id, status.name)
///     case .serviceEnded(let error, _): print(error)
///     default: break
///     }
/// }
/// ```
public enum StartupEvent: Sendable {
    /// The run began; offsets in later events count from here.
    case runStarted(commandCount: Int)
    /// An attempt of a command started (`attempt` counts from 1).
    case commandStarted(CommandID, attempt: Int, at: Duration)
    /// An attempt failed or timed out and another will follow after `delay`.
    case commandRetrying(CommandID, failedAttempt: Int, outcome: CommandStatus, delay: Duration, at: Duration)
    /// A command reached its final status: succeeded, failed, timed out, was skipped or cancelled.
    case commandFinished(CommandID, status: CommandStatus, attempts: Int, startOffset: Duration?, at: Duration)
    /// The start-up ended; the report is complete. Only ``serviceEnded(_:at:)`` events follow it.
    case runFinished(StartupReport)
    /// A service that was ready ended by itself (not stopped by the shutdown).
    case serviceEnded(ServiceEndedError, at: Duration)
}
