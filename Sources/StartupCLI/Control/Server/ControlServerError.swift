import StartupSupport

/// Why a run cannot listen on its control socket.
package struct ControlServerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    package enum Code: Hashable, Sendable {
        /// A run of the manifest is already up: the run must exit 1 before starting anything.
        case alreadyUp
        /// The socket's folder, lock or socket could not be made.
        case cannotListen
    }

    /// What went wrong.
    package let code: Code
    /// The sentence to print (without `error: `): "a run of commands.json is already up (pid N): use startup ps,
    /// startup restart, startup down".
    package let message: String
    /// The process id of the run that is up, when `code` is ``Code/alreadyUp`` and it is known.
    package let pid: Int32?

    package var description: String { message }

    /// A run of `manifest` (as the user gave it) whose process is `pid` is already up.
    static func alreadyUp(_ manifest: String, pid: Int32?) -> ControlServerError {
        let who = pid.map { "pid \($0)" } ?? "its pid unknown"
        return ControlServerError(
            code: .alreadyUp,
            message: "a run of \(MessageQuoting.escaped(manifest)) is already up (\(who)): use startup ps, startup restart, startup down",
            pid: pid)
    }

    /// The socket could not be set up: `what` failed on `path` with `errno`.
    static func cannotListen(_ what: String, _ path: String, _ error: Errno) -> ControlServerError {
        ControlServerError(code: .cannotListen, message: "cannot \(what) \(path) for the control socket: \(error.message)", pid: nil)
    }
}
