/// The text of `startup --help` and of each subcommand's `--help`.
package enum HelpText {
    /// The version `startup --version` prints.
    package static let version = "0.1.0"

    static let exitCodes = ExitCode.helpSection

    /// The help for a subcommand, or the general help.
    package static func text(for subcommand: Invocation.Subcommand?) -> String {
        switch subcommand {
        case nil: general
        case .plan: plan
        case .run: run
        case .graph: graph
        case .plot: plot
        case .diff: diff
        case .completions: completions
        }
    }

    static let general = """
        OVERVIEW: Plan and run a start-up graph of dependent commands, concurrently, and see why it is slow.

        USAGE: startup <subcommand> [options]

        SUBCOMMANDS:
        \(HelpColumns.rows(Invocation.Subcommand.allCases.map { ($0.rawValue, $0.summary) }, column: 11))

        \(HelpColumns.options(OptionDeclarations.shown(for: nil), column: 18))

        \(exitCodes)
        """

    static let plan = """
        OVERVIEW: Validate the manifest and print the plan: the waves, each command with its dependencies (and,
        apart, the commands it runs after) and estimate, the predicted critical path and the predicted wall
        time, then warnings about likely mistakes (a required command that depends on an optional one).
        On-demand commands are marked. Commands without an estimate use the duration measured in the last run
        (.startup/last-run.json), and the output says which.

        USAGE: startup plan [--file <path>] [--jobs <n>] [--format text|json|dot|mermaid] [--what-if <changes>] [ID...]

        ARGUMENTS:
          ID...                   Plan only these commands and what they need, transitively, as make plans a
                                  target (default: every command); "--" ends the options

        \(HelpColumns.options(OptionDeclarations.shown(for: .plan)))

        \(exitCodes)
        """

    static let graph = """
        OVERVIEW: Print the dependency graph, "after" edges dashed, the critical path (by estimates) highlighted.

        USAGE: startup graph [--file <path>] [--format dot|mermaid]

        \(HelpColumns.options(OptionDeclarations.shown(for: .graph)))

        \(exitCodes)
        """

    static let run = """
        OVERVIEW: Run the manifest's commands, each with /bin/sh -c (or directly when the line has no shell
        syntax) in its own process group, as soon as its dependencies have succeeded. Prints each command as
        it finishes, then the wall time, the critical path and the failures with their output. Saves the
        report (the JSON of --format json) to .startup/last-run.json beside the manifest, atomically; the
        next run and plan use its measured durations for commands without an estimate.

        USAGE: startup run [--file <path>] [--jobs <n>] [--fail-fast] [--simulate] [--trace] [options] [ID...]
                           [-- CMD [ARGS...]]

        ARGUMENTS:
          ID...                   Run only these commands and what they need, transitively, as make builds a
                                  target (default: every command); a target that is on demand runs. Other
                                  commands are not part of the run and not in its report
          -- CMD [ARGS...]        Once the start-up succeeded (every command done, every service ready), run
                                  CMD in the foreground with the terminal and startup's environment, then
                                  shut everything down and exit with CMD's status. CMD never runs if the
                                  start-up fails (exit 1). Start the stack, run the tests, tear it down

        \(HelpColumns.options(OptionDeclarations.shown(for: .run)))

        SERVICES:
          A command with "ready" is a service: it keeps running, and what depends on it starts once its
          probe (exec, tcp, http, log or after) succeeds. Its duration is its time to ready. While services run,
          their output is shown prefixed by their id, until Ctrl-C, SIGTERM, SIGHUP, or a service ending
          by itself (exit 1). Then everything stops in reverse dependency order: a service by its "stop"
          line if it has one, else SIGTERM to its process group and what left it; whatever of its
          processes is still there when the grace period ends gets SIGKILL, and the stop says so.

        STOP LINES:
          A command's "stop" line undoes it. When the run shuts down after its start-up (Ctrl-C, a service
          ending by itself, the end of -- CMD or of --keep-running), the stop lines of the commands that
          succeeded run in the same walk as the services: a command stops only after everything depending on it has;
          independent ones at once. A plain run that ends by itself runs no stop lines. A stop line still
          running at its command's "stopTimeout" (default 10s) gets SIGTERM, and SIGKILL after the grace
          period; a service's processes then have the grace period to end, before SIGTERM and SIGKILL.
          A second Ctrl-C kills what is stopping at once and starts no other stop line.

        ON DEMAND:
          A command with "onDemand": true runs only when a command that runs depends on it, or when it is
          named as a target; otherwise it ends "not requested", which is not a failure.

        ENVIRONMENT:
          Each command gets STARTUP_COMMAND_ID and STARTUP_PROCESS_TOKEN (its process's own). NO_COLOR turns colours off; they are only used on a terminal.

        \(exitCodes)
        """

    static let plot = """
        OVERVIEW: Draw a saved run report as an SVG timeline: one bar per command on a time axis, coloured by
        status, the critical path highlighted, slack as a lighter tail, dependencies as thin lines (and on
        hover in a browser), details in each bar's tooltip.

        USAGE: startup plot [<report>] [--output <path>] [--to <id>]

        ARGUMENTS:
          <report>                A report saved by startup run (default: .startup/last-run.json)

        \(HelpColumns.options(OptionDeclarations.shown(for: .plot)))

        \(exitCodes)
        """

    static let diff = """
        OVERVIEW: Compare two saved run reports: the wall time, each command's duration change, the critical
        path before and after, and what moved the wall time: each change's effect on the critical path
        (a slower command with slack to spare moves nothing).

        USAGE: startup diff <before> <after> [--format text|json]

        ARGUMENTS:
          <before> <after>        Reports saved by startup run (.startup/last-run.json, --report, or the
                                  output of startup run --format json)

        \(HelpColumns.options(OptionDeclarations.shown(for: .diff)))

        \(exitCodes)
        """

    static let completions = """
        OVERVIEW: Print the completion script for a shell. It completes the subcommands, their options, the
        values of --format and --output, file names, and the command ids of the manifest in effect (the one
        -f names on the line being completed, else commands.json) for run and plan.

        USAGE: startup completions bash|zsh|fish

        ARGUMENTS:
          <shell>                 bash, zsh or fish

        \(HelpColumns.options(OptionDeclarations.shown(for: .completions)))

        INSTALL:
          bash    in ~/.bashrc: source <(startup completions bash)
          zsh     startup completions zsh > ~/.zfunc/_startup, and in ~/.zshrc, before compinit:
                  fpath=(~/.zfunc $fpath)
          fish    startup completions fish > ~/.config/fish/completions/startup.fish

        \(exitCodes)
        """
}
