/// The exit statuses of `startup`, as sysexits(3) and swift-argument-parser use them. Thrown by
/// the steps of a subcommand to end it early with this status.
package enum ExitCode: Int32, Error, Sendable {
    /// Every required command succeeded (or the plan is valid).
    case success = 0
    /// A required command failed, timed out or was skipped.
    case failure = 1
    /// The command line is wrong.
    case usage = 64
    /// The manifest was read but is invalid.
    case invalidManifest = 65
    /// The manifest file is missing, a directory, or unreadable.
    case manifestUnreadable = 66
    /// A file could not be written (such as the trace).
    case cannotCreate = 73
    /// Standard output could not be written (a full disk, `> /dev/full`).
    case outputFailed = 74
    /// The run was interrupted (Ctrl-C, SIGTERM or SIGHUP).
    case interrupted = 130
    /// Standard output was closed (its reader went away), so the run was stopped.
    case outputClosed = 141
}
