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

    // What each code means to a user is in ``table``, the one place it is written.

    /// 0: the subcommand did what it was asked.
    package static let success = ExitCode(rawValue: 0)
    /// 1: the start-up (or a budget, a service, a stop) failed.
    package static let failure = ExitCode(rawValue: 1)
    /// 64: the command line is wrong.
    package static let usage = ExitCode(rawValue: 64)
    /// 65: the manifest or a report was read but is invalid, or an env file has a bad line.
    package static let invalidManifest = ExitCode(rawValue: 65)
    /// 66: the manifest, a report or an env file cannot be read.
    package static let manifestUnreadable = ExitCode(rawValue: 66)
    /// 69: no run of the manifest is up (nothing answers at its control socket).
    package static let unavailable = ExitCode(rawValue: 69)
    /// 71: the system would not give what any run needs.
    package static let outOfResources = ExitCode(rawValue: 71)
    /// 73: a file or the `--log-dir` folder could not be written.
    package static let cannotCreate = ExitCode(rawValue: 73)
    /// 74: standard output could not be written.
    package static let outputFailed = ExitCode(rawValue: 74)
    /// 77: the run's control socket, or what is at its path, is another user's.
    package static let noPermission = ExitCode(rawValue: 77)
    /// 130: the run was interrupted.
    package static let interrupted = ExitCode(rawValue: 130)
    /// 141: standard output was closed, so the run was stopped.
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

extension ExitCode {
    /// One row of ``table``.
    package struct Row: Sendable, Hashable {
        /// The code as the table shows it: its number, or `N` for the status passed on from `-- CMD`.
        package let code: String
        /// Its name in ``ExitCode`` (`usage`), or `passedOn`.
        package let name: String
        /// What it means to a user, in one sentence of Markdown (code in backticks).
        package let meaning: String

        init(_ code: ExitCode, _ name: String, _ meaning: String) {
            self.code = "\(code.rawValue)"
            self.name = name
            self.meaning = meaning
        }

        init(passedOn meaning: String) {
            code = "N"
            name = "passedOn"
            self.meaning = meaning
        }
    }

    /// Every exit status of `startup` and what it means: the one table of them. `startup --help`
    /// prints it (``helpSection``); the README's table must list the same rows, as
    /// `ExitCodeTableTests` checks, and docs/CLI.md links to it.
    package static let table: [Row] = [
        Row(
            success, "success",
            "every required command succeeded within its budget (`run`), the manifest is valid (`plan`, `graph`), "
                + "the report was drawn or compared (`plot`, `diff`), or the running stack did what was asked (`ps`, "
                + "`restart`, ...)"),
        Row(
            failure, "failure",
            "a required command failed, timed out or was skipped, a budget was exceeded, a service ended by itself, "
                + "or a stop failed; with `-- CMD`, the start-up failed so CMD never ran; a run of the manifest is "
                + "already up (`run`, before anything started); `restart`/`start` of a command not ready again, "
                + "`stop`/`down` with a failed stop"),
        Row(passedOn: "with `-- CMD`: CMD's own exit status (128 + the signal when a signal killed it)"),
        Row(
            usage, "usage",
            "usage error: unknown subcommand, option or target (`startup run ID...`), bad value, or an id the "
                + "running stack does not have (`startup restart ID...`)"),
        Row(
            invalidManifest, "invalidManifest",
            "the manifest (or a report file given to `plot`, `diff`, `plan --report`) was read but is invalid "
                + "(every problem is listed), or an env file it names has a bad line (`run`, `file:line:` for each)"),
        Row(
            manifestUnreadable, "manifestUnreadable",
            "the manifest (or report) file is missing, a directory, unreadable, or larger than 256 MiB, or an env "
                + "file it names is missing, unreadable or larger than 16 MiB (`run`)"),
        Row(
            unavailable, "unavailable",
            "no run of the manifest is up: nothing answers at its control socket (`ps`, `restart`, `stop`, `start`, "
                + "`logs`, `down`, `events`)"),
        Row(
            outOfResources, "outOfResources",
            "`startup` could not get what any run needs from the system (no file descriptor left for a pipe: "
                + "`ulimit -n` too low); a message says so, nothing was started"),
        Row(
            cannotCreate, "cannotCreate",
            "the trace, the plot or a report named with `--report` could not be written, or the `--log-dir` folder "
                + "could not be made or written to (before anything started)"),
        Row(
            outputFailed, "outputFailed",
            "standard output could not be written (a full disk, `> /dev/full`); a message says so on standard error "
                + "(an interrupted run says so too and exits 130; with `-- CMD`, the status stays CMD's)"),
        Row(
            noPermission, "noPermission",
            "the run's control socket, or what answers there, belongs to another user; nothing was asked (`ps`, "
                + "`restart`, ...)"),
        Row(
            interrupted, "interrupted",
            "interrupted (Ctrl-C, SIGTERM or SIGHUP); the report so far is still printed and saved, the trace written"),
        Row(
            outputClosed, "outputClosed",
            "standard output was closed (e.g. piped into `head`); the run was stopped, the report saved"),
    ]

    /// The `EXIT CODES:` section of every `--help`: ``table`` as plain text (without the backticks),
    /// wrapped to the help's width.
    static var helpSection: String {
        "EXIT CODES:\n"
            + HelpColumns.rows(table.map { ($0.code, $0.meaning.filter { $0 != "`" }) }, column: 7)
    }
}
