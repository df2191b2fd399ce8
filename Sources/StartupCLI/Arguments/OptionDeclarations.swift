import StartupKit

/// Every subcommand's options, each declared once, in the order `--help` lists them: the parser
/// reads through these, and `--help` and the completion scripts show their descriptors.
enum OptionDeclarations {
    /// `startup plan`.
    static let plan: [OptionSpec<PlanOptions>] = [
        .manifest { $0.file = $1 },
        .count("--jobs", short: "-j", value: "n", help: "Predict the wall time with n slots (default: unlimited)") { $0.jobs = $1 },
        .choice("--format", value: "format", from: PlanFormat.allCases, help: "text (default), json, dot or mermaid") { $0.format = $1 },
        OptionSpec(
            OptionDescriptor(
                "--what-if", value: .init(name: "changes", completion: .freeText),
                help: """
                    Predict the wall time and critical path after changes, separated by ";" (the option may be repeated; a verb takes \
                    several arguments with ","):
                      drop=ID          remove the command; what waited for it waits for its
                                       dependencies instead
                      detach=ID        nothing waits for the command any more (alias: defer)
                      cut=A->B         B no longer waits for A
                      scale=ID:F       the command takes F times as long (0.5, 50%)
                      set=ID:TIME      the command takes TIME (80ms, 1.5s)
                    e.g. --what-if "drop=search-index; scale=database:0.5; detach=analytics"
                    json prints the changed plan with a "whatIf" object; dot and mermaid draw the changed graph
                    """)
        ) { reader, name, options throws(UsageError) in
            let text = try reader.value(for: name)
            do throws(WhatIfError) {
                options.whatIf += try WhatIfSyntax.parse(text)
            } catch {
                throw reader.error("--what-if: \(error.message)")
            }
        },
        .path("--report", help: "The run report to take measured durations from (default: .startup/last-run.json beside the manifest)") {
            $0.report = $1
        },
        .flag("--no-report", help: "Use estimates only") { $0.usesLastRun = false },
    ]

    /// `startup graph`.
    static let graph: [OptionSpec<PlanOptions>] = [
        .manifest { $0.file = $1 },
        .choice("--format", value: "format", from: [PlanFormat.dot, .mermaid], help: "dot (default) or mermaid") { $0.format = $1 },
    ]

    /// `startup run`.
    static let run: [OptionSpec<RunOptions>] = [
        .manifest { $0.file = $1 },
        .count("--jobs", short: "-j", value: "n", help: "Run at most n commands at once (default: unlimited)") { $0.jobs = $1 },
        .flag("--fail-fast", help: "Stop everything at the first required failure") { $0.failFast = true },
        .flag("--simulate", help: "Sleep for each command's estimate instead of running it") { $0.simulate = true },
        .choice(
            "--output", value: "mode", from: OutputMode.allCases,
            help: """
                grouped (default: each command's output when it ends, its last 64 KiB), stream (byte for byte, as written), or quiet
                """
        ) { $0.output = $1 },
        .choice("--format", value: "format", from: RunFormat.allCases, help: "text (default) or json (the report, on standard output)") {
            $0.format = $1
        },
        .flag("--trace", help: "Also print the timeline and write a Chrome trace file") { $0.trace = true },
        .path("--trace-file", help: "Where to write the trace (implies --trace; default: .startup/trace.json beside the manifest)") {
            $0.trace = true
            $0.traceFile = $1
        },
        .path("--plot", help: "Also draw the run as an SVG timeline (as startup plot does)") { $0.plot = $1 },
        .duration(
            "--budget",
            help: """
                Exit 1 if the wall time exceeds this (e.g. 800ms); commands may have their own "budget" in the manifest
                """, isPositive: true
        ) { $0.budget = $1 },
        .path(
            "--report",
            help: "Where to save the report, and the last one to learn from (default: .startup/last-run.json beside the manifest)"
        ) {
            $0.report = $1
        },
        .flag("--no-report", help: "Neither save the report nor use the last one") { $0.savesReport = false },
        .duration(
            "--grace-period", help: "Between SIGTERM and SIGKILL for all of a stopped command's processes (default: 2s, at most 1h)",
            maximum: (RunOptions.longestGracePeriod, "1h")
        ) {
            $0.gracePeriod = $1
        },
        .flag("--keep-running", help: "After the run, stay up until Ctrl-C or SIGTERM, then run the stop lines") { $0.keepRunning = true },
        .flag("--no-watch", help: "Do not reload commands when their \"watch\" files change") {
            $0.watchesFiles = false
        },
        .directory(
            "--log-dir",
            help: """
                Also append each command's and service's output (both streams, byte for byte) to dir/ID.log, a header line before \
                each start; dir is made if missing, and an id that is not a safe file name is escaped (/ as %2F)
                """
        ) { $0.logDirectory = $1 },
    ]

    /// `startup plot`.
    static let plot: [OptionSpec<PlotOptions>] = [
        .path("--output", short: "-o", help: "Where to write the SVG (default: the report's path with .svg;\n- for standard output)") {
            $0.output = $1
        },
        OptionSpec(
            OptionDescriptor(
                "--to", value: .init(name: "id", completion: .freeText),
                help: "Draw the critical path to this command (a milestone, such as the first screen) and slack before it")
        ) { reader, name, options throws(UsageError) in
            options.milestone = CommandID(try reader.value(for: name))
        },
    ]

    /// `startup diff`.
    static let diff: [OptionSpec<DiffOptions>] = [
        .choice("--format", value: "format", from: DiffFormat.allCases, help: "text (default) or json") { $0.format = $1 }
    ]

    /// `startup completions`: both options are for the completion scripts, which call back
    /// `startup completions --ids [-f FILE]` for the manifest's command ids.
    static let completions: [OptionSpec<CompletionsOptions>] = [
        .flag("--ids", help: "Print the manifest's command ids, one a line, instead of a script", isHidden: true) { $0.listsIDs = true },
        .path("--file", short: "-f", help: "The manifest whose ids --ids prints (default: commands.json)", isHidden: true) {
            $0.file = $1
        },
        .flag("--run", help: "With --ids: the ids of the manifest's run that is up, else the manifest's", isHidden: true) {
            $0.ofRun = true
        },
    ]

    /// `-f, --file` of a client subcommand: the manifest whose run to ask (`logs` has only `--file`, since its `-f`
    /// follows, as in `tail -f`).
    private static func controlFile(short: String? = "-f") -> OptionSpec<ControlArguments> {
        .path("--file", short: short, help: "Ask the run of this manifest (default: commands.json); only its path is used, to find the run")
        {
            $0.file = $1
        }
    }

    /// `startup ps`.
    static let ps: [OptionSpec<ControlArguments>] = [
        controlFile(),
        .choice("--format", value: "format", from: ControlFormat.allCases, help: "text (default: a table) or json") { $0.format = $1 },
    ]

    /// `startup restart`.
    static let restart: [OptionSpec<ControlArguments>] = [
        controlFile(),
        .flag("--cascade", help: "Once each is ready again, restart its running dependents too, in dependency order") { $0.cascade = true },
    ]

    /// `startup stop`.
    static let stop: [OptionSpec<ControlArguments>] = [
        controlFile(),
        .flag("--cascade", help: "Stop their running dependents first, in reverse dependency order") { $0.cascade = true },
    ]

    /// `startup start`, `startup down` and `startup events`.
    static let fileOnly: [OptionSpec<ControlArguments>] = [controlFile()]

    /// `startup logs`.
    static let logs: [OptionSpec<ControlArguments>] = [
        controlFile(short: nil),
        .count("--lines", short: "-n", value: "n", help: "At most the last n lines of each (default: all that is kept, 64 KiB each)") {
            $0.lines = $1
        },
        OptionSpec(OptionDescriptor("--follow", short: "-f", help: "Then print new output as it comes, until Ctrl-C or the run ends")) {
            _, _, options throws(UsageError) in options.follow = true
        },
        .choice(
            "--format", value: "format", from: ControlFormat.allCases,
            help: "text (default: \"id | line\") or json (one {\"id\", \"text\"} a line)"
        ) {
            $0.format = $1
        },
    ]

    /// The declarations of a client subcommand.
    static func control(_ subcommand: Invocation.Subcommand) -> [OptionSpec<ControlArguments>] {
        switch subcommand {
        case .ps: ps
        case .restart: restart
        case .stop: stop
        case .logs: logs
        default: fileOnly
        }
    }

    /// What `subcommand` takes besides its options.
    static func operands(of subcommand: Invocation.Subcommand) -> OptionReader.Operands {
        switch subcommand {
        case .graph, .ps, .down, .events: .none
        case .plan, .plot, .diff, .completions, .restart, .stop, .start, .logs: .some
        case .run: .someThenCommand
        }
    }

    /// The options `--help` and the completion scripts show for `subcommand`, `-h, --help` last;
    /// for `nil`, the options `startup` takes before a subcommand.
    static func shown(for subcommand: Invocation.Subcommand?) -> [OptionDescriptor] {
        guard let subcommand else { return [.generalHelp, .version] }
        let declared: [OptionDescriptor] =
            switch subcommand {
            case .plan: plan.map(\.descriptor)
            case .run: run.map(\.descriptor)
            case .graph: graph.map(\.descriptor)
            case .plot: plot.map(\.descriptor)
            case .diff: diff.map(\.descriptor)
            case .completions: completions.map(\.descriptor)
            case .ps, .restart, .stop, .start, .logs, .down, .events: control(subcommand).map(\.descriptor)
            }
        return declared.filter { !$0.isHidden } + [.subcommandHelp]
    }
}
