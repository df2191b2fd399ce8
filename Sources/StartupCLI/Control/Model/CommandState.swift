/// The state of one command of a run that stays up, as `startup ps` shows it and `startup events`
/// reports its changes. The raw values are the protocol's and the JSON's words.
package enum CommandState: String, CaseIterable, Sendable {
    /// Waiting for its dependencies.
    case waiting
    /// Started, not yet ready (a service) or not yet ended (a command).
    case starting
    /// A service whose probe succeeded.
    case ready
    /// A command or a service without readiness still running.
    case running
    /// A one-shot command that ended well.
    case succeeded
    /// A command that failed or timed out.
    case failed
    /// Not run: what it needs failed.
    case skipped
    /// Being stopped (by hand, a restart or the shutdown).
    case stopping
    /// Stopped by hand or by the shutdown.
    case stopped
    /// Between two incarnations of a service (a restart by its policy or by hand).
    case restarting
    /// A service that ended by itself.
    case exited
}
