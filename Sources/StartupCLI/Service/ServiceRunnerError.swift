/// Why a service's process runner ended other than by the stop its caller asked for.
package struct ServiceRunnerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What happened.
    package enum Reason: Sendable, Hashable {
        /// The service's process ended by itself (or could not be started), before or after it was ready.
        case exited(Termination, afterReady: Bool)
        /// The service was stopped as asked, but its `stop` line did not succeed.
        case stopFailed(Termination)
        /// The pipe for the service's output could not be created (an errno).
        case cannotCreatePipe(errno: Int32)
    }

    /// What happened.
    package var reason: Reason

    /// Creates an error.
    package init(_ reason: Reason) {
        self.reason = reason
    }

    /// `exited with status 3 before it was ready`, `exited with status 0`, `was killed by signal 9 (SIGKILL)`,
    /// `stop line failed: exit status 1`.
    package var description: String {
        switch reason {
        case .exited(let termination, let afterReady):
            let ending: String
            switch termination {
            case .exited(let status): ending = "exited with status \(status)"
            case .signaled: ending = "was " + ShellCommandError(termination: termination).description
            case .failedToStart(_, let message): return message
            }
            return afterReady ? ending : ending + " before it was ready"
        case .stopFailed(let termination):
            return ShellCommandError(termination: termination, isStopLine: true).description
        case .cannotCreatePipe(let code):
            return "cannot create a pipe for the service's output: \(errnoDescription(code))"
        }
    }
}
