/// Where a child's stdout and stderr go.
package enum OutputDestination: Sendable, Hashable {
    /// The child writes straight to our stdout/stderr (like make).
    case inherit
    /// stdout+stderr are interleaved into an unlinked temporary file and the last 64 KiB is returned.
    case capture
    /// stdout+stderr go to `/dev/null`.
    case discard
    /// stdout+stderr go to this descriptor of the caller's (a pipe a service's output is read from), which the
    /// caller keeps open until the child has been reaped.
    case descriptor(Int32)
}

/// Everything needed to spawn one child process.
package struct ProcessSpec: Sendable, Hashable {
    /// The environment variable naming the manifest command a process runs for. Descendants inherit it, which
    /// tells whose a process is.
    package static let commandIDVariable = "STARTUP_COMMAND_ID"
    /// The environment variable the engine gives each process it starts for a manifest command (each attempt, each
    /// stop line) with a value of its own: descendants inherit it, which is how a stop tells the orphans of this
    /// attempt from those an earlier attempt of the same command left (see `ProcessTree`).
    package static let processTokenVariable = "STARTUP_PROCESS_TOKEN"

    /// argv; `arguments[0]` is looked up in the `PATH` of `environment` when it contains no slash.
    package var arguments: [String]
    /// The complete environment of the child (nothing is inherited implicitly; the caller merges).
    package var environment: ChildEnvironment
    /// Directory the child starts in; `nil` keeps ours. Relative argv[0] / PATH entries resolve against it.
    package var workingDirectory: String?
    /// Where stdout/stderr go; stdin is `/dev/null` unless `foreground`.
    package var output: OutputDestination
    /// A foreground child (`startup run ... -- CMD`): it stays in `startup`'s process group, so the terminal's
    /// Ctrl-C reaches it, and inherits standard input; stopping it signals the child (and its tree), not a group.
    package var foreground: Bool

    /// Creates a spec.
    package init(
        arguments: [String],
        environment: ChildEnvironment,
        workingDirectory: String? = nil,
        output: OutputDestination = .inherit,
        foreground: Bool = false
    ) {
        self.arguments = arguments
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.output = output
        self.foreground = foreground
    }

    /// Creates a spec whose child gets exactly `environment`.
    package init(
        arguments: [String],
        environment: [String: String],
        workingDirectory: String? = nil,
        output: OutputDestination = .inherit,
        foreground: Bool = false
    ) {
        self.init(
            arguments: arguments, environment: ChildEnvironment(environment), workingDirectory: workingDirectory, output: output,
            foreground: foreground)
    }
}
