import Testing

@testable import StartupCLI

/// `startup --help` and every `startup <subcommand> --help`, pinned: a change of the help, by hand or
/// through an option's declaration, shows in the diff of this file.
@Suite struct HelpSnapshotTests {
    private func help(_ arguments: [String]) async -> (ExitCode, String) {
        let console = Console.capturing()
        let code = await StartupTool.main(arguments, environment: [:], console: console)
        return (code, console.capturedOutput)
    }

    @Test func generalHelp_printsAsPinned() async {
        let (code, text) = await help(["--help"])
        #expect(code == .success)
        #expect(text == Self.general + "\n")
    }

    @Test(arguments: Invocation.Subcommand.allCases)
    func subcommandHelp_printsAsPinned(subcommand: Invocation.Subcommand) async throws {
        let expected = try #require(Self.subcommands[subcommand], "no pinned help for \(subcommand.rawValue)")
        let (code, text) = await help([subcommand.rawValue, "--help"])
        #expect(code == .success)
        #expect(text == expected + "\n")
    }

    static let subcommands: [Invocation.Subcommand: String] = [
        .plan: plan, .run: run, .graph: graph, .plot: plot, .diff: diff, .ps: ps, .restart: restart, .stop: stop, .start: start,
        .logs: logs, .down: down, .events: events, .completions: completions,
    ]

    /// The exit codes' section, the same in every help.
    static let exitCodes = """
        EXIT CODES:
          0    every required command succeeded within its budget (run), the manifest is valid (plan,
               graph), the report was drawn or compared (plot, diff), or the running stack did what was
               asked (ps, restart, ...)
          1    a required command failed, timed out or was skipped, a budget was exceeded, a service ended
               by itself, or a stop failed; with -- CMD, the start-up failed so CMD never ran; a run of
               the manifest is already up (run, before anything started); restart/start of a command not
               ready again, stop/down with a failed stop
          N    with -- CMD: CMD's own exit status (128 + the signal when a signal killed it)
          64   usage error: unknown subcommand, option or target (startup run ID...), bad value, or an id
               the running stack does not have (startup restart ID...)
          65   the manifest (or a report file given to plot, diff, plan --report) was read but is invalid
               (every problem is listed), or an env file it names has a bad line (run, file:line: for
               each)
          66   the manifest (or report) file is missing, a directory, unreadable, or larger than 256 MiB,
               or an env file it names is missing, unreadable or larger than 16 MiB (run)
          69   no run of the manifest is up: nothing answers at its control socket (ps, restart, stop,
               start, logs, down, events)
          71   startup could not get what any run needs from the system (no file descriptor left for a
               pipe: ulimit -n too low); a message says so, nothing was started
          73   the trace, the plot or a report named with --report could not be written, or the --log-dir
               folder could not be made or written to (before anything started)
          74   standard output could not be written (a full disk, > /dev/full); a message says so on
               standard error (an interrupted run says so too and exits 130; with -- CMD, the status stays
               CMD's)
          77   the run's control socket, or what answers there, belongs to another user; nothing was asked
               (ps, restart, ...)
          130  interrupted (Ctrl-C, SIGTERM or SIGHUP); the report so far is still printed and saved, the
               trace written
          141  standard output was closed (e.g. piped into head); the run was stopped, the report saved
        """

    static let general = """
        OVERVIEW: Plan and run a start-up graph of dependent commands, concurrently, and see why it is slow.

        USAGE: startup <subcommand> [options]

        SUBCOMMANDS:
          plan     Validate the manifest and print the waves, critical path and predicted wall time;
                   --what-if predicts the effect of removing, speeding up or detaching commands
          run      Run the commands, each as soon as its dependencies succeed; saves the report
          graph    Print the dependency graph as Graphviz DOT or Mermaid
          plot     Draw a saved run report as an SVG timeline
          diff     Compare two saved run reports: what changed and what moved the wall time
          ps       List the commands of the run that is up: state, pid, for how long, time to ready,
                   restarts
          restart  Restart commands of the run that is up (--cascade: then their running dependents); says
                   what it cost
          stop     Stop commands of the run that is up; they stay stopped until startup start
          start    Start commands of the run that is up again (or an on-demand one nothing asked for)
          logs     Print the kept output of the run's commands, prefixed by id; -f follows new output
          down     Shut the run that is up down, as Ctrl-C would, and print how each stop ended
          events   Print every state change of the run that is up, one JSON object a line
          completions
                   Print the completion script for bash, zsh or fish

        OPTIONS:
          -h, --help      Show help (also: startup <subcommand> --help)
          -V, --version   Print the version

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

        OPTIONS:
          -f, --file <path>       The manifest (default: commands.json; - for standard input)
          -j, --jobs <n>          Predict the wall time with n slots (default: unlimited)
          --format <format>       text (default), json, dot or mermaid
          --what-if <changes>     Predict the wall time and critical path after changes, separated by ";"
                                  (the option may be repeated; a verb takes several arguments with ","):
                                    drop=ID          remove the command; what waited for it waits for its
                                                     dependencies instead
                                    detach=ID        nothing waits for the command any more (alias: defer)
                                    cut=A->B         B no longer waits for A
                                    scale=ID:F       the command takes F times as long (0.5, 50%)
                                    set=ID:TIME      the command takes TIME (80ms, 1.5s)
                                  e.g. --what-if "drop=search-index; scale=database:0.5; detach=analytics"
                                  json prints the changed plan with a "whatIf" object; dot and mermaid
                                  draw the changed graph
          --report <path>         The run report to take measured durations from (default:
                                  .startup/last-run.json beside the manifest)
          --no-report             Use estimates only
          -h, --help              Show this help

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

        OPTIONS:
          -f, --file <path>       The manifest (default: commands.json; - for standard input)
          -j, --jobs <n>          Run at most n commands at once (default: unlimited)
          --fail-fast             Stop everything at the first required failure
          --simulate              Sleep for each command's estimate instead of running it
          --output <mode>         grouped (default: each command's output when it ends, its last 64 KiB),
                                  stream (byte for byte, as written), or quiet
          --format <format>       text (default) or json (the report, on standard output)
          --trace                 Also print the timeline and write a Chrome trace file
          --trace-file <path>     Where to write the trace (implies --trace; default: .startup/trace.json
                                  beside the manifest)
          --plot <path>           Also draw the run as an SVG timeline (as startup plot does)
          --budget <time>         Exit 1 if the wall time exceeds this (e.g. 800ms); commands may have
                                  their own "budget" in the manifest
          --report <path>         Where to save the report, and the last one to learn from (default:
                                  .startup/last-run.json beside the manifest)
          --no-report             Neither save the report nor use the last one
          --grace-period <time>   Between SIGTERM and SIGKILL for all of a stopped command's processes
                                  (default: 2s, at most 1h)
          --keep-running          After the run, stay up until Ctrl-C or SIGTERM, then run the stop lines
          --no-watch              Do not reload commands when their "watch" files change
          --log-dir <dir>         Also append each command's and service's output (both streams, byte for
                                  byte) to dir/ID.log, a header line before each start; dir is made if
                                  missing, and an id that is not a safe file name is escaped (/ as %2F)
          -h, --help              Show this help

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

    static let graph = """
        OVERVIEW: Print the dependency graph, "after" edges dashed, the critical path (by estimates) highlighted.

        USAGE: startup graph [--file <path>] [--format dot|mermaid]

        OPTIONS:
          -f, --file <path>       The manifest (default: commands.json; - for standard input)
          --format <format>       dot (default) or mermaid
          -h, --help              Show this help

        \(exitCodes)
        """

    static let plot = """
        OVERVIEW: Draw a saved run report as an SVG timeline: one bar per command on a time axis, coloured by
        status, the critical path highlighted, slack as a lighter tail, dependencies as thin lines and
        order-only "after" edges as dashed ones (and on hover in a browser), details in each bar's tooltip.

        USAGE: startup plot [<report>] [--output <path>] [--to <id>]

        ARGUMENTS:
          <report>                A report saved by startup run (default: .startup/last-run.json)

        OPTIONS:
          -o, --output <path>     Where to write the SVG (default: the report's path with .svg;
                                  - for standard output)
          --to <id>               Draw the critical path to this command (a milestone, such as the first
                                  screen) and slack before it
          -h, --help              Show this help

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

        OPTIONS:
          --format <format>       text (default) or json
          -h, --help              Show this help

        \(exitCodes)
        """

    static let ps = """
        OVERVIEW: List every command of the run that is up, in plan order: its kind (command or service),
        state, the pid startup started (- when none runs), for how long it has been in that state, its
        time to ready, how often it was restarted, and what its last probe or liveness check saw.

        USAGE: startup ps [--file <path>] [--format text|json]

        OPTIONS:
          -f, --file <path>       Ask the run of this manifest (default: commands.json); only its path is
                                  used, to find the run
          --format <format>       text (default: a table) or json
          -h, --help              Show this help

        THE RUN:
          A startup run that holds services, --keep-running or -- CMD listens on a control socket,
          .startup/<manifest>.sock beside its manifest; these commands find it from --file (they read
          nothing else of the manifest) and exit 69 when no run of it is up. Only the run's own user may
          ask it. docs/CLI.md describes the protocol, for editors and dashboards.

        \(exitCodes)
        """

    static let restart = """
        OVERVIEW: Restart commands of the run that is up: a service is stopped gracefully (its stop line,
        or SIGTERM and the grace period), started again and probed for readiness; a one-shot command runs
        again. Returns once each is ready (or has succeeded), exit 0, or says why not, exit 1, and prints
        what it cost. Dependents keep running unless --cascade. Restarts by hand do not count against
        "restart" limits.

        USAGE: startup restart [--file <path>] [--cascade] ID...

        ARGUMENTS:
          ID...                   The commands to restart, in the run

        OPTIONS:
          -f, --file <path>       Ask the run of this manifest (default: commands.json); only its path is
                                  used, to find the run
          --cascade               Once each is ready again, restart its running dependents too, in
                                  dependency order
          -h, --help              Show this help

        THE RUN:
          A startup run that holds services, --keep-running or -- CMD listens on a control socket,
          .startup/<manifest>.sock beside its manifest; these commands find it from --file (they read
          nothing else of the manifest) and exit 69 when no run of it is up. Only the run's own user may
          ask it. docs/CLI.md describes the protocol, for editors and dashboards.

        \(exitCodes)
        """

    static let stop = """
        OVERVIEW: Stop commands of the run that is up by hand, gracefully: a stopped service stays stopped
        (its restart policy does not apply, and the run does not end because of it) until startup start.

        USAGE: startup stop [--file <path>] [--cascade] ID...

        ARGUMENTS:
          ID...                   The commands to stop, in the run

        OPTIONS:
          -f, --file <path>       Ask the run of this manifest (default: commands.json); only its path is
                                  used, to find the run
          --cascade               Stop their running dependents first, in reverse dependency order
          -h, --help              Show this help

        THE RUN:
          A startup run that holds services, --keep-running or -- CMD listens on a control socket,
          .startup/<manifest>.sock beside its manifest; these commands find it from --file (they read
          nothing else of the manifest) and exit 69 when no run of it is up. Only the run's own user may
          ask it. docs/CLI.md describes the protocol, for editors and dashboards.

        \(exitCodes)
        """

    static let start = """
        OVERVIEW: Start commands of the run that is up again, with what they need that is not up; also an
        on-demand command nothing asked for yet. Returns once each is ready (or has succeeded).

        USAGE: startup start [--file <path>] ID...

        ARGUMENTS:
          ID...                   The commands to start, in the run

        OPTIONS:
          -f, --file <path>       Ask the run of this manifest (default: commands.json); only its path is
                                  used, to find the run
          -h, --help              Show this help

        THE RUN:
          A startup run that holds services, --keep-running or -- CMD listens on a control socket,
          .startup/<manifest>.sock beside its manifest; these commands find it from --file (they read
          nothing else of the manifest) and exit 69 when no run of it is up. Only the run's own user may
          ask it. docs/CLI.md describes the protocol, for editors and dashboards.

        \(exitCodes)
        """

    static let logs = """
        OVERVIEW: Print the kept output of commands of the run that is up (the last 64 KiB of each), each
        line prefixed by its id as in the run's own stream; -f then follows new output until Ctrl-C or the
        run ends.

        USAGE: startup logs [--file <path>] [-n <n>] [-f] [ID...]

        ARGUMENTS:
          ID...                   The commands whose output to print (default: all)

        OPTIONS:
          --file <path>           Ask the run of this manifest (default: commands.json); only its path is
                                  used, to find the run
          -n, --lines <n>         At most the last n lines of each (default: all that is kept, 64 KiB
                                  each)
          -f, --follow            Then print new output as it comes, until Ctrl-C or the run ends
          --format <format>       text (default: "id | line") or json (one {"id", "text"} a line)
          -h, --help              Show this help

        THE RUN:
          A startup run that holds services, --keep-running or -- CMD listens on a control socket,
          .startup/<manifest>.sock beside its manifest; these commands find it from --file (they read
          nothing else of the manifest) and exit 69 when no run of it is up. Only the run's own user may
          ask it. docs/CLI.md describes the protocol, for editors and dashboards.

        \(exitCodes)
        """

    static let down = """
        OVERVIEW: Shut the run that is up down as Ctrl-C would (reverse dependency order, stop lines,
        grace period), wait until it has, and print how each stop ended: exit 0, or 1 if a stop failed.

        USAGE: startup down [--file <path>]

        OPTIONS:
          -f, --file <path>       Ask the run of this manifest (default: commands.json); only its path is
                                  used, to find the run
          -h, --help              Show this help

        THE RUN:
          A startup run that holds services, --keep-running or -- CMD listens on a control socket,
          .startup/<manifest>.sock beside its manifest; these commands find it from --file (they read
          nothing else of the manifest) and exit 69 when no run of it is up. Only the run's own user may
          ask it. docs/CLI.md describes the protocol, for editors and dashboards.

        \(exitCodes)
        """

    static let events = """
        OVERVIEW: Print every state change of the run that is up from now on, one JSON object a line:
        {"atMs", "id", "state", ...} (a command starting, ready, ended and how, restarting, stopped; a
        reload starting or ending, with a null id), until Ctrl-C or the run ends.

        USAGE: startup events [--file <path>]

        OPTIONS:
          -f, --file <path>       Ask the run of this manifest (default: commands.json); only its path is
                                  used, to find the run
          -h, --help              Show this help

        THE RUN:
          A startup run that holds services, --keep-running or -- CMD listens on a control socket,
          .startup/<manifest>.sock beside its manifest; these commands find it from --file (they read
          nothing else of the manifest) and exit 69 when no run of it is up. Only the run's own user may
          ask it. docs/CLI.md describes the protocol, for editors and dashboards.

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

        OPTIONS:
          -h, --help              Show this help

        INSTALL:
          bash    in ~/.bashrc: source <(startup completions bash)
          zsh     startup completions zsh > ~/.zfunc/_startup, and in ~/.zshrc, before compinit:
                  fpath=(~/.zfunc $fpath)
          fish    startup completions fish > ~/.config/fish/completions/startup.fish

        \(exitCodes)
        """
}
