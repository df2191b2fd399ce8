/// The text of `startup --help` and of each subcommand's `--help`.
package enum HelpText {
    /// The version `startup --version` prints.
    package static let version = "0.1.0"

    static let exitCodes = """
    EXIT CODES:
      0    every required command succeeded (run), or the manifest is valid (plan, graph)
      1    a required command failed, timed out or was skipped
      64   usage error: unknown subcommand or option, bad value
      65   the manifest was read but is invalid (every problem is listed)
      66   the manifest file is missing, a directory, or unreadable
      73   the trace file could not be written
      130  interrupted (Ctrl-C or SIGTERM); the report so far is still printed
    """

    /// The help for a subcommand, or the general help.
    package static func text(for subcommand: Invocation.Subcommand?) -> String {
        switch subcommand {
        case nil: general
        case .plan: plan
        case .run: run
        case .graph: graph
        }
    }

    static let general = """
    OVERVIEW: Plan and run a start-up graph of dependent commands, concurrently, and see why it is slow.

    USAGE: startup <subcommand> [options]

    SUBCOMMANDS:
      plan     Validate the manifest and print the waves, critical path and predicted wall time
      run      Run the commands, each as soon as its dependencies succeed
      graph    Print the dependency graph as Graphviz DOT or Mermaid

    OPTIONS:
      -h, --help      Show help (also: startup <subcommand> --help)
      --version       Print the version

    \(exitCodes)
    """

    static let plan = """
    OVERVIEW: Validate the manifest and print the plan: the waves, each command with its dependencies and
    estimate, the predicted critical path and the predicted wall time.

    USAGE: startup plan [--file <path>] [--jobs <n>] [--format text|json|dot|mermaid]

    OPTIONS:
      -f, --file <path>     The manifest (default: commands.json)
      -j, --jobs <n>        Predict the wall time with n slots (default: unlimited)
      --format <format>     text (default), json, dot or mermaid
      -h, --help            Show this help

    \(exitCodes)
    """

    static let graph = """
    OVERVIEW: Print the dependency graph, the critical path (by estimates) highlighted.

    USAGE: startup graph [--file <path>] [--format dot|mermaid]

    OPTIONS:
      -f, --file <path>     The manifest (default: commands.json)
      --format <format>     dot (default) or mermaid
      -h, --help            Show this help

    \(exitCodes)
    """

    static let run = """
    OVERVIEW: Run the manifest's commands, each with /bin/sh -c (or directly when the line has no shell
    syntax) in its own process group, as soon as its dependencies have succeeded. Prints each command as
    it finishes, then the wall time, the critical path and the failures with their output.

    USAGE: startup run [--file <path>] [--jobs <n>] [--fail-fast] [--simulate] [--trace] [options]

    OPTIONS:
      -f, --file <path>       The manifest (default: commands.json)
      -j, --jobs <n>          Run at most n commands at once (default: unlimited)
      --fail-fast             Stop everything at the first required failure
      --simulate              Sleep for each command's estimate instead of running it
      --output <mode>         grouped (default: each command's output when it ends), stream, or quiet
      --format <format>       text (default) or json (the report, on standard output)
      --trace                 Also print the timeline and write a Chrome trace file
      --trace-file <path>     Where to write the trace (implies --trace; default: .startup/trace.json
                              beside the manifest)
      --grace-period <time>   Between SIGTERM and SIGKILL on timeout or Ctrl-C (default: 2s)
      -h, --help              Show this help

    ENVIRONMENT:
      Each command gets STARTUP_COMMAND_ID. NO_COLOR turns colours off; they are only used on a terminal.

    \(exitCodes)
    """
}
