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

    /// The subcommands.
    package enum Subcommand: String, CaseIterable, Sendable {
        case plan, run, graph
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

/// The options of `startup plan` and `startup graph`.
package struct PlanOptions: Equatable, Sendable {
    package var file = "commands.json"
    package var jobs: Int?
    package var format = PlanFormat.text
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
}
