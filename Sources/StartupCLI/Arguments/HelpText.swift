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
        case .ps, .restart, .stop, .start, .logs, .down, .events: control(subcommand!)
        }
    }

    /// The help of a client subcommand.
    static func control(_ subcommand: Subcommand) -> String {
        let (overview, usage, arguments) = controlParts(subcommand)
        let wrapped = HelpColumns.wrapped("OVERVIEW: " + overview.split(separator: "\n").joined(separator: " "), width: HelpColumns.width)
        return """
            \(wrapped.joined(separator: "\n"))

            USAGE: \(usage)
            \(arguments.isEmpty ? "" : "\nARGUMENTS:\n" + arguments + "\n")
            \(HelpColumns.options(OptionDeclarations.shown(for: subcommand)))

            THE RUN:
              A startup run that holds services, --keep-running or -- CMD listens on a control socket,
              .startup/<manifest>.sock beside its manifest; these commands find it from --file (they read
              nothing else of the manifest) and exit 69 when no run of it is up. Only the run's own user may
              ask it. docs/CLI.md describes the protocol, for editors and dashboards.

            \(exitCodes)
            """
    }

    typealias Subcommand = Invocation.Subcommand

    /// The overview, usage and arguments of a client subcommand's help.
    private static func controlParts(_ subcommand: Subcommand) -> (String, String, String) {
        let ids = "  ID...                   "
        switch subcommand {
        case .ps:
            return (
                """
                List every command of the run that is up, in plan order: its kind (command or service),
                state, the pid startup started (- when none runs), for how long it has been in that state, its
                time to ready, how often it was restarted, and what its last probe or liveness check saw.
                """, "startup ps [--file <path>] [--format text|json]", ""
            )
        case .restart:
            return (
                """
                Restart commands of the run that is up: a service is stopped gracefully (its stop line, or
                SIGTERM and the grace period), started again and probed for readiness; a one-shot command runs
                again. Returns once each is ready (or has succeeded), exit 0, or says why not, exit 1, and prints
                what it cost. Dependents keep running unless --cascade. Restarts by hand do not count against
                "restart" limits.
                """, "startup restart [--file <path>] [--cascade] ID...", ids + "The commands to restart, in the run"
            )
        case .stop:
            return (
                """
                Stop commands of the run that is up by hand, gracefully: a stopped service stays stopped (its
                restart policy does not apply, and the run does not end because of it) until startup start.
                """, "startup stop [--file <path>] [--cascade] ID...", ids + "The commands to stop, in the run"
            )
        case .start:
            return (
                """
                Start commands of the run that is up again, with what they need that is not up; also an
                on-demand command nothing asked for yet. Returns once each is ready (or has succeeded).
                """, "startup start [--file <path>] ID...", ids + "The commands to start, in the run"
            )
        case .logs:
            return (
                """
                Print the kept output of commands of the run that is up (the last 64 KiB of each), each line
                prefixed by its id as in the run's own stream; -f then follows new output until Ctrl-C or the
                run ends.
                """, "startup logs [--file <path>] [-n <n>] [-f] [ID...]", ids + "The commands whose output to print (default: all)"
            )
        case .down:
            return (
                """
                Shut the run that is up down as Ctrl-C would (reverse dependency order, stop lines, grace
                period), wait until it has, and print how each stop ended: exit 0, or 1 if a stop failed.
                """, "startup down [--file <path>]", ""
            )
        default:
            return (
                """
                Print every state change of the run that is up from now on, one JSON object a line:
                {"atMs", "id", "state", ...} (a command starting, ready, ended and how, restarting, stopped; a
                reload starting or ending, with a null id), until Ctrl-C or the run ends.
                """, "startup events [--file <path>]", ""
            )
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

        WATCH:
          A command with "watch" (paths or globs relative to the manifest's folder, "!" to exclude) is
          reloaded while the run is up when a file it watches changes: a service is restarted, a one-shot
          command run again, then its running dependents, and a line says what changed, the reload's wall
          time and its critical path. A failed reload leaves the stack running. Not in CI mode (-- CMD),
          nor with --no-watch; .git/, .startup/ and the --log-dir folder are never watched.

        ENVIRONMENT:
          Each command gets STARTUP_COMMAND_ID and STARTUP_PROCESS_TOKEN (its process's own). NO_COLOR turns colours off; they are only used on a terminal.

        \(exitCodes)
        """

    static let plot = """
        OVERVIEW: Draw a saved run report as an SVG timeline: one bar per command on a time axis, coloured by
        status, the critical path highlighted, slack as a lighter tail, dependencies as thin lines and
        order-only "after" edges as dashed ones (and on hover in a browser), details in each bar's tooltip.

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
        -f names on the line being completed, else commands.json) for run and plan; for restart, stop, start
        and logs, the ids of its run that is up (the manifest's when none is).

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
