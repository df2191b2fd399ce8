/// A shell command that did not succeed: how it ended.
struct ShellCommandError: Error, CustomStringConvertible {
    let termination: Termination
    /// Whether the command was a `stop` line, which the description then says.
    var isStopLine = false

    /// `exit status 3`, `killed by signal 9 (SIGKILL)`, `stop line failed: exit status 3`.
    var description: String {
        let ending =
            switch termination {
            case .exited(let status): "exit status \(status)"
            case .signaled(let signal): "killed by signal \(signal)\(signalName(signal).map { " (\($0))" } ?? "")"
            case .failedToStart(_, let message): message
            }
        return isStopLine ? "stop line failed: " + ending : ending
    }

    private func signalName(_ signal: Int32) -> String? {
        [1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 6: "SIGABRT", 9: "SIGKILL", 11: "SIGSEGV", 13: "SIGPIPE", 15: "SIGTERM"][signal]
    }
}
