/// The exit statuses of `startup`, as sysexits(3) and swift-argument-parser use them. Thrown by
/// the steps of a subcommand to end it early with this status.
package struct ExitCode: RawRepresentable, Error, Sendable, Hashable {
    /// The status the process exits with.
    package let rawValue: Int32
    /// Whether this is the status of the command after `--`, passed on as it is (see ``passedOn(_:)``): a
    /// failed write to standard output does not replace it with 74.
    package let isPassedOn: Bool

    /// An exit status of `startup`'s own.
    package init(rawValue: Int32) {
        self.init(rawValue: rawValue, isPassedOn: false)
    }

    private init(rawValue: Int32, isPassedOn: Bool) {
        self.rawValue = rawValue
        self.isPassedOn = isPassedOn
    }

    /// Every required command succeeded (or the plan is valid).
    package static let success = ExitCode(rawValue: 0)
    /// A required command failed, timed out or was skipped.
    package static let failure = ExitCode(rawValue: 1)
    /// The command line is wrong.
    package static let usage = ExitCode(rawValue: 64)
    /// The manifest was read but is invalid, or an env file it names has a bad line.
    package static let invalidManifest = ExitCode(rawValue: 65)
    /// The manifest file is missing, a directory, unreadable, or over 256 MiB, or an env file it names cannot be
    /// read.
    package static let manifestUnreadable = ExitCode(rawValue: 66)
    /// No run of the manifest is up (`startup ps`, `restart`, ...): nothing answers at its control socket.
    package static let unavailable = ExitCode(rawValue: 69)
    /// The run's control socket, or what is at its path, is another user's (`startup ps`, `restart`, ...).
    package static let noPermission = ExitCode(rawValue: 77)
    /// A file could not be written (such as the trace), or the `--log-dir` folder could not be made or written to.
    package static let cannotCreate = ExitCode(rawValue: 73)
    /// The system would not give what any run needs (no file descriptor left for a pipe: `ulimit -n`).
    package static let outOfResources = ExitCode(rawValue: 71)
    /// Standard output could not be written (a full disk, `> /dev/full`).
    package static let outputFailed = ExitCode(rawValue: 74)
    /// The run was interrupted (Ctrl-C, SIGTERM or SIGHUP).
    package static let interrupted = ExitCode(rawValue: 130)
    /// Standard output was closed (its reader went away), so the run was stopped.
    package static let outputClosed = ExitCode(rawValue: 141)

    /// The status of the command after `--` (`startup run ... -- CMD`), passed on: its exit status, or 128 plus
    /// the signal that killed it, as shells report it.
    package static func passedOn(_ termination: Termination) -> ExitCode {
        switch termination {
        case .exited(let status): ExitCode(rawValue: status, isPassedOn: true)
        case .signaled(let signal): ExitCode(rawValue: 128 + signal, isPassedOn: true)
        case .failedToStart: ExitCode(rawValue: 127, isPassedOn: true)
        }
    }
}
