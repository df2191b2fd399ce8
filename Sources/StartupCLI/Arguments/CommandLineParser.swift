import StartupKit
import StartupManifest
import StartupSupport

/// Parses `startup`'s command line: a subcommand, then its options (``OptionDeclarations``) and
/// operands in any order. Options take their value as the next argument or after `=` (`--jobs 4`,
/// `--jobs=4`, `-j 4`, `-j4`).
package enum CommandLineParser {
    /// Parses the arguments after the program name.
    ///
    /// - Throws: ``UsageError`` naming the offending argument, with a suggestion where possible.
    package static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        guard let first = arguments.first else { return .help(nil) }
        if first == "help" || OptionDescriptor.generalHelp.names.contains(first) {
            if arguments.count > 1, let subcommand = Invocation.Subcommand(rawValue: arguments[1]) { return .help(subcommand) }
            return .help(nil)
        }
        if first == "version" || OptionDescriptor.version.names.contains(first) { return .version }
        guard let subcommand = Invocation.Subcommand(rawValue: first) else {
            let hint =
                IdentifierSuggestion.closest(to: first, in: Invocation.Subcommand.allCases.map(\.rawValue))
                .map { " (did you mean \"\($0)\"?)" } ?? ""
            let what =
                first.hasPrefix("-")
                ? "expected a subcommand before \(MessageQuoting.quoted(first))"
                : "unknown subcommand \(MessageQuoting.quoted(first))\(hint)"
            let names = Invocation.Subcommand.allCases.map(\.rawValue)
            throw UsageError(
                message: what + "; the subcommands are \(names.dropLast().joined(separator: ", ")) and \(names[names.count - 1])",
                subcommand: nil)
        }
        var reader = OptionReader(arguments: Array(arguments.dropFirst()), subcommand: subcommand)
        if reader.wantsHelp { return .help(subcommand) }
        switch subcommand {
        case .plan: return .plan(try planOptions(&reader))
        case .graph: return .graph(try graphOptions(&reader))
        case .run: return .run(try runOptions(&reader))
        case .plot: return .plot(try plotOptions(&reader))
        case .diff: return .diff(try diffOptions(&reader))
        case .completions: return try completions(&reader)
        case .ps, .restart, .stop, .start, .logs, .down, .events: return .control(try controlOptions(&reader))
        }
    }

    private static func planOptions(_ reader: inout OptionReader) throws(UsageError) -> PlanOptions {
        var options = PlanOptions()
        let remainder = try reader.read(OptionDeclarations.plan, into: &options)
        options.targets = remainder.operands.map { CommandID($0) }
        if options.report != nil, !options.usesLastRun { throw reader.error("--report and --no-report cannot be used together") }
        return options
    }

    private static func graphOptions(_ reader: inout OptionReader) throws(UsageError) -> PlanOptions {
        var options = PlanOptions(format: .dot)
        _ = try reader.read(OptionDeclarations.graph, into: &options)
        return options
    }

    private static func plotOptions(_ reader: inout OptionReader) throws(UsageError) -> PlotOptions {
        var options = PlotOptions()
        let reports = try reader.read(OptionDeclarations.plot, into: &options).operands
        guard reports.count <= 1 else {
            throw reader.error("unexpected argument \(MessageQuoting.quoted(reports[1])); plot draws one report (see startup plot --help)")
        }
        if let report = reports.first { options.report = report }
        return options
    }

    private static func diffOptions(_ reader: inout OptionReader) throws(UsageError) -> DiffOptions {
        var options = DiffOptions(before: "", after: "")
        let reports = try reader.read(OptionDeclarations.diff, into: &options).operands
        guard reports.count == 2 else {
            let problem =
                reports.count < 2
                ? "diff needs two report files" : "unexpected argument \(MessageQuoting.quoted(reports[2])); diff compares two report files"
            throw reader.error(problem + ": startup diff BEFORE.json AFTER.json (startup run saves .startup/last-run.json)")
        }
        options.before = reports[0]
        options.after = reports[1]
        return options
    }

    private static func runOptions(_ reader: inout OptionReader) throws(UsageError) -> RunOptions {
        var options = RunOptions()
        let remainder = try reader.read(OptionDeclarations.run, into: &options)
        options.targets = remainder.operands.map { CommandID($0) }
        if let command = remainder.command {
            guard !command.isEmpty else { throw reader.error("expected a command after --, as in: startup run -- make test") }
            if options.keepRunning { throw reader.error("--keep-running and a command after -- cannot be used together") }
            options.command = command
        }
        if options.report != nil, !options.savesReport { throw reader.error("--report and --no-report cannot be used together") }
        return options
    }

    /// A client subcommand's options and ids, made into its request.
    private static func controlOptions(_ reader: inout OptionReader) throws(UsageError) -> ControlOptions {
        var arguments = ControlArguments()
        let subcommand = reader.subcommand
        let ids = try reader.read(OptionDeclarations.control(subcommand), into: &arguments).operands.map { CommandID($0) }
        if let empty = ids.first(where: { $0.rawValue.isEmpty }) {
            throw reader.error("\(MessageQuoting.quoted(empty)) is not a command id")
        }
        let request: ControlRequest
        switch subcommand {
        case .restart, .stop, .start:
            guard !ids.isEmpty else {
                throw reader.error(
                    "\(subcommand.rawValue) needs the ids of the commands to \(subcommand.rawValue), as in: startup \(subcommand.rawValue) api"
                )
            }
            request =
                subcommand == .restart
                ? .restart(ids, cascade: arguments.cascade) : subcommand == .stop ? .stop(ids, cascade: arguments.cascade) : .start(ids)
        case .logs: request = .logs(ids, lines: arguments.lines, follow: arguments.follow)
        case .down: request = .down
        case .events: request = .events
        default: request = .ps
        }
        return ControlOptions(file: arguments.file, format: arguments.format, request: request)
    }

    /// `startup completions SHELL`, or `startup completions --ids [-f FILE]` for the scripts.
    private static func completions(_ reader: inout OptionReader) throws(UsageError) -> Invocation {
        var options = CompletionsOptions()
        let shells = try reader.read(OptionDeclarations.completions, into: &options).operands
        let names = CompletionShell.allCases.map(\.rawValue)
        let listed = names.dropLast().joined(separator: ", ")
        let choices = listed + " or " + names[names.count - 1]
        if options.listsIDs {
            if let shell = shells.first { throw reader.error("unexpected argument \(MessageQuoting.quoted(shell)); --ids takes no shell") }
            return options.ofRun
                ? .runIDs(manifest: options.file ?? "commands.json") : .commandIDs(manifest: options.file ?? "commands.json")
        }
        if options.ofRun { throw reader.error("--run goes with --ids") }
        if options.file != nil { throw reader.error("--file names the manifest of --ids; a script reads the manifest when it completes") }
        guard let name = shells.first else {
            throw reader.error("completions needs a shell, \(choices), as in: startup completions bash")
        }
        guard let shell = CompletionShell(rawValue: name) else {
            let hint = IdentifierSuggestion.closest(to: name, in: names).map { " (did you mean \"\($0)\"?)" } ?? ""
            throw reader.error(
                "unknown shell \(MessageQuoting.quoted(name))\(hint); the shells are \(listed) and \(names[names.count - 1])")
        }
        guard shells.count == 1 else {
            throw reader.error("unexpected argument \(MessageQuoting.quoted(shells[1])); completions prints one shell's script")
        }
        return .completions(shell)
    }
}
