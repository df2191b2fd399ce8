import StartupKit
import StartupSupport

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
        /// The service failed its liveness checks and was stopped: the sentence says how, and how its stop ended.
        case notAlive(String)
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
        case .notAlive(let sentence):
            return sentence
        }
    }
}

/// The `tcp` or `http` probe's address accepted a connection before the service started: another process has the
/// port, and the probe would report the service ready without its having started. Neither retried nor restarted:
/// the service is not started.
package struct AddressInUseError: NonRetryableError, Sendable, Hashable, CustomStringConvertible {
    /// The probe's host.
    package let host: String
    /// The probe's port.
    package let port: Int
    /// The process that listens on the port, where the system says (``PortHolder``): `pid 4242: python3 srv.py 5432`.
    package var holder: String? = nil

    /// `port 5432 is already in use by another process (pid 4242: postgres -p 5432; 127.0.0.1:5432 accepts
    /// connections); …`.
    package var description: String {
        let address = MessageQuoting.escaped(host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)")
        return "port \(port) is already in use by another process (\(holder.map { $0 + "; " } ?? "")\(address) accepts connections); "
            + "the service would be reported ready without having started, so it was not started"
    }
}
