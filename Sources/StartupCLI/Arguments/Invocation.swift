import StartupKit

/// What the user asked `startup` to do, parsed from the command line.
package enum Invocation: Equatable, Sendable {
    /// Print the help of a subcommand, or the general help for `nil`.
    case help(Subcommand?)
    /// Print the version.
    case version
    /// Validate the manifest and print the plan.
    case plan(PlanOptions)
    /// Print the dependency graph (DOT or Mermaid).
    case graph(PlanOptions)
    /// Run the manifest's commands.
    case run(RunOptions)
    /// Draw a saved run report as an SVG timeline.
    case plot(PlotOptions)
    /// Compare two saved run reports.
    case diff(DiffOptions)
    /// Print the completion script for a shell.
    case completions(CompletionShell)
    /// Print the ids of a manifest's commands, one a line, for the completion scripts; the path is
    /// the manifest's.
    case commandIDs(manifest: String)
    /// Print the ids of the run of a manifest that is up, else of the manifest, one a line, for the completion
    /// scripts of the client subcommands; the path is the manifest's.
    case runIDs(manifest: String)
    /// Ask the run of a manifest that is up: `startup ps`, `restart`, `stop`, `start`, `logs`, `down`, `events`.
    case control(ControlOptions)

    /// The subcommands.
    package enum Subcommand: String, CaseIterable, Sendable {
        case plan, run, graph, plot, diff, ps, restart, stop, start, logs, down, events, completions

        /// The subcommands that talk to a run that is up, through its control socket.
        static let control: [Subcommand] = [.ps, .restart, .stop, .start, .logs, .down, .events]

        /// What the subcommand does, in a sentence or two, as the general help and the
        /// completion scripts describe it.
        var summary: String {
            switch self {
            case .plan:
                "Validate the manifest and print the waves, critical path and predicted wall time; --what-if predicts the effect of "
                    + "removing, speeding up or detaching commands"
            case .run: "Run the commands, each as soon as its dependencies succeed; saves the report"
            case .graph: "Print the dependency graph as Graphviz DOT or Mermaid"
            case .plot: "Draw a saved run report as an SVG timeline"
            case .diff: "Compare two saved run reports: what changed and what moved the wall time"
            case .ps: "List the commands of the run that is up: state, pid, for how long, time to ready, restarts"
            case .restart: "Restart commands of the run that is up (--cascade: then their running dependents); says what it cost"
            case .stop: "Stop commands of the run that is up; they stay stopped until startup start"
            case .start: "Start commands of the run that is up again (or an on-demand one nothing asked for)"
            case .logs: "Print the kept output of the run's commands, prefixed by id; -f follows new output"
            case .down: "Shut the run that is up down, as Ctrl-C would, and print how each stop ended"
            case .events: "Print every state change of the run that is up, one JSON object a line"
            case .completions: "Print the completion script for bash, zsh or fish"
            }
        }
    }
}

/// How `startup plan` and `startup graph` print.
package enum PlanFormat: String, CaseIterable, Sendable {
    case text, json, dot, mermaid
}

/// How `startup run` shows the commands' own output.
package enum OutputMode: String, CaseIterable, Sendable {
    /// Each command's output, captured, printed in one piece when it finishes.
    case grouped
    /// Output goes straight to the terminal as the commands write it.
    case stream
    /// Nothing but the output of commands that fail.
    case quiet
}

/// How `startup run` reports: for people, or for machines.
package enum RunFormat: String, CaseIterable, Sendable {
    case text, json
}

/// How `startup diff` reports.
package enum DiffFormat: String, CaseIterable, Sendable {
    case text, json
}

/// The options of `startup plan` and `startup graph`.
package struct PlanOptions: Equatable, Sendable {
    package var file = "commands.json"
    package var jobs: Int?
    package var format = PlanFormat.text
    /// Changes to predict the effect of (`--what-if`), in order; none for the plain plan.
    package var whatIf: [WhatIfChange] = []
    /// The run report whose measured durations stand in for missing estimates (`--report`);
    /// `nil` for `.startup/last-run.json` beside the manifest.
    package var report: String?
    /// Whether to use the last run's measured durations at all (`--no-report` turns it off).
    package var usesLastRun = true
    /// The commands to plan, with what they need (`startup plan ID...`); none for all of them.
    package var targets: [CommandID] = []
}

/// The options of `startup run`.
package struct RunOptions: Equatable, Sendable {
    package var file = "commands.json"
    package var jobs: Int?
    package var failFast = false
    package var simulate = false
    package var output = OutputMode.grouped
    package var format = RunFormat.text
    package var trace = false
    package var traceFile: String?
    /// How long a process group has between SIGTERM and SIGKILL.
    package var gracePeriod = Duration.seconds(2)
    /// The longest `--grace-period`: a stop that needs longer is one to fix, and the second Ctrl-C ends it anyway.
    package static let longestGracePeriod = Duration.seconds(3_600)
    /// Where to write the SVG timeline (`--plot`); `nil` for none.
    package var plot: String?
    /// The budget of the whole run's wall time (`--budget`); `nil` for none.
    package var budget: Duration?
    /// Where the run's report is saved, and the last one read (`--report`); `nil` for
    /// `.startup/last-run.json` beside the manifest.
    package var report: String?
    /// Whether to save the report and learn from the last one (`--no-report` turns it off).
    package var savesReport = true
    /// Whether to stay up after the run until Ctrl-C or SIGTERM, then run the `stop` lines.
    package var keepRunning = false
    /// Whether the commands' `"watch"` may reload them (`--no-watch` turns it off); ``watches`` says whether the
    /// run watches.
    package var watchesFiles = true
    /// The folder each command's and service's output is also logged in (`--log-dir`), relative to the current
    /// directory; `nil` for no logs.
    package var logDirectory: String?
    /// The commands to run, with what they need (`startup run ID...`); none for all of them.
    package var targets: [CommandID] = []
    /// The command to run once the start-up succeeded (`startup run ... -- CMD ARGS...`), with
    /// its arguments; `nil` for none.
    package var command: [String]?

    /// Whether the run watches the files its commands' `"watch"` names while it is up, to reload them: not with
    /// `--no-watch`, and never in CI mode (a command after `--`), whose stack lives only for that command.
    package var watches: Bool { watchesFiles && command == nil }
}

/// The options of `startup plot`.
package struct PlotOptions: Equatable, Sendable {
    /// The run report to draw.
    package var report = ".startup/last-run.json"
    /// Where to write the SVG; `nil` for the report's path with `.svg`, `-` for standard output.
    package var output: String?
    /// The milestone whose critical path and slack to draw (`--to`); `nil` for the whole run's.
    package var milestone: CommandID?
}

/// The options of `startup completions`, before the parser checks them: the scripts call back
/// `startup completions --ids [-f FILE]`.
struct CompletionsOptions {
    /// Whether to print the manifest's command ids instead of a script (`--ids`).
    var listsIDs = false
    /// The manifest whose ids to print (`--file`); `nil` if not given.
    var file: String?
    /// Whether to print the ids of the manifest's run that is up, falling back to the manifest's (`--run`).
    var ofRun = false
}

/// How the client subcommands print: for people, or for machines.
package enum ControlFormat: String, CaseIterable, Sendable {
    case text, json
}

/// The options of the client subcommands (`startup ps`, `restart`, `stop`, `start`, `logs`, `down`, `events`):
/// which run to ask, what, and how to print its answer.
package struct ControlOptions: Equatable, Sendable {
    /// The manifest whose run to ask (`--file`), as given: the run's socket is found from it.
    package var file = "commands.json"
    /// How to print (`--format`, for `ps` and `logs`).
    package var format = ControlFormat.text
    /// What to ask.
    package var request: ControlRequest

    /// The options of `request`.
    package init(file: String = "commands.json", format: ControlFormat = .text, request: ControlRequest) {
        self.file = file
        self.format = format
        self.request = request
    }
}

/// The options of a client subcommand as the parser reads them, before the request is made of them.
struct ControlArguments {
    var file = "commands.json"
    var format = ControlFormat.text
    var cascade = false
    var lines: Int?
    var follow = false
}

/// The options of `startup diff`.
package struct DiffOptions: Equatable, Sendable {
    /// The earlier run's report.
    package var before: String
    /// The later run's report.
    package var after: String
    package var format = DiffFormat.text
}
