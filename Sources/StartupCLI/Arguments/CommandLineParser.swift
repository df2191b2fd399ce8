import StartupKit
import StartupManifest

/// Parses `startup`'s command line: a subcommand, then options in any order. Options take their
/// value as the next argument or after `=` (`--jobs 4`, `--jobs=4`, `-j 4`, `-j4`).
package enum CommandLineParser {
    /// Parses the arguments after the program name.
    ///
    /// - Throws: ``UsageError`` naming the offending argument, with a suggestion where possible.
    package static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        guard let first = arguments.first else { return .help(nil) }
        switch first {
        case "-h", "--help", "help":
            if arguments.count > 1, let subcommand = Invocation.Subcommand(rawValue: arguments[1]) { return .help(subcommand) }
            return .help(nil)
        case "--version", "-V", "version":
            return .version
        default:
            break
        }
        guard let subcommand = Invocation.Subcommand(rawValue: first) else {
            let hint = IdentifierSuggestion.closest(to: first, in: Invocation.Subcommand.allCases.map(\.rawValue))
                .map { " (did you mean \"\($0)\"?)" } ?? ""
            let what = first.hasPrefix("-") ? "expected a subcommand before \(MessageQuoting.quoted(first))" : "unknown subcommand \(MessageQuoting.quoted(first))\(hint)"
            throw UsageError(message: what + "; the subcommands are plan, run, graph, plot and diff", subcommand: nil)
        }
        var reader = OptionReader(arguments: Array(arguments.dropFirst()), subcommand: subcommand)
        if reader.wantsHelp { return .help(subcommand) }
        switch subcommand {
        case .plan: return .plan(try planOptions(&reader))
        case .graph: return .graph(try graphOptions(&reader))
        case .run: return .run(try runOptions(&reader))
        case .plot: return .plot(try plotOptions(&reader))
        case .diff: return .diff(try diffOptions(&reader))
        }
    }

    private static func planOptions(_ reader: inout OptionReader) throws(UsageError) -> PlanOptions {
        var options = PlanOptions()
        let known = ["--file", "-f", "--jobs", "-j", "--format", "--what-if", "--report", "--no-report"]
        var targets: [String] = []
        while let option = try reader.nextOption(known: known, positionals: &targets) {
            switch option {
            case "--file", "-f": options.file = try reader.value(for: option)
            case "--jobs", "-j": options.jobs = try reader.positiveInteger(for: option)
            case "--what-if":
                let text = try reader.value(for: option)
                do {
                    options.whatIf += try WhatIfSyntax.parse(text)
                } catch {
                    throw reader.error("--what-if: \(error.message)")
                }
            case "--report": options.report = try reader.value(for: option)
            case "--no-report": options.usesLastRun = false
            default: options.format = try reader.choice(for: option, from: PlanFormat.allCases)
            }
        }
        options.targets = targets.map { CommandID($0) }
        if options.report != nil, !options.usesLastRun { throw reader.error("--report and --no-report cannot be used together") }
        return options
    }

    private static func graphOptions(_ reader: inout OptionReader) throws(UsageError) -> PlanOptions {
        var options = PlanOptions(format: .dot)
        while let option = try reader.nextOption(known: ["--file", "-f", "--format"]) {
            switch option {
            case "--file", "-f": options.file = try reader.value(for: option)
            default: options.format = try reader.choice(for: option, from: [PlanFormat.dot, .mermaid])
            }
        }
        return options
    }

    private static func plotOptions(_ reader: inout OptionReader) throws(UsageError) -> PlotOptions {
        var options = PlotOptions()
        var reports: [String] = []
        while let option = try reader.nextOption(known: ["--output", "-o"], positionals: &reports) {
            options.output = try reader.value(for: option)
        }
        guard reports.count <= 1 else {
            throw reader.error("unexpected argument \(MessageQuoting.quoted(reports[1])); plot draws one report (see startup plot --help)")
        }
        if let report = reports.first { options.report = report }
        return options
    }

    private static func diffOptions(_ reader: inout OptionReader) throws(UsageError) -> DiffOptions {
        var format = DiffFormat.text
        var reports: [String] = []
        while let option = try reader.nextOption(known: ["--format"], positionals: &reports) {
            format = try reader.choice(for: option, from: DiffFormat.allCases)
        }
        guard reports.count == 2 else {
            let problem = reports.count < 2 ? "diff needs two report files" : "unexpected argument \(MessageQuoting.quoted(reports[2])); diff compares two report files"
            throw reader.error(problem + ": startup diff BEFORE.json AFTER.json (startup run saves .startup/last-run.json)")
        }
        return DiffOptions(before: reports[0], after: reports[1], format: format)
    }

    private static func runOptions(_ reader: inout OptionReader) throws(UsageError) -> RunOptions {
        var options = RunOptions()
        let known = ["--file", "-f", "--jobs", "-j", "--fail-fast", "--simulate", "--output", "--format", "--trace",
                     "--trace-file", "--grace-period", "--plot", "--budget", "--report", "--no-report", "--keep-running"]
        var targets: [String] = []
        reader.endsAtDoubleDash = true
        while let option = try reader.nextOption(known: known, positionals: &targets) {
            switch option {
            case "--file", "-f": options.file = try reader.value(for: option)
            case "--jobs", "-j": options.jobs = try reader.positiveInteger(for: option)
            case "--fail-fast": options.failFast = true
            case "--simulate": options.simulate = true
            case "--output": options.output = try reader.choice(for: option, from: OutputMode.allCases)
            case "--format": options.format = try reader.choice(for: option, from: RunFormat.allCases)
            case "--trace": options.trace = true
            case "--trace-file":
                options.trace = true
                options.traceFile = try reader.value(for: option)
            case "--plot": options.plot = try reader.value(for: option)
            case "--budget":
                let budget = try reader.duration(for: option)
                guard budget > .zero else { throw reader.error("--budget must be longer than zero") }
                options.budget = budget
            case "--report": options.report = try reader.value(for: option)
            case "--no-report": options.savesReport = false
            case "--keep-running": options.keepRunning = true
            default: options.gracePeriod = try reader.duration(for: option)
            }
        }
        options.targets = targets.map { CommandID($0) }
        if let command = reader.afterDoubleDash {
            guard !command.isEmpty else { throw reader.error("expected a command after --, as in: startup run -- make test") }
            if options.keepRunning { throw reader.error("--keep-running and a command after -- cannot be used together") }
            options.command = command
        }
        if options.report != nil, !options.savesReport { throw reader.error("--report and --no-report cannot be used together") }
        return options
    }
}

/// Walks the options of one subcommand.
private struct OptionReader {
    private var arguments: [String]
    private var position = 0
    private var pendingValue: String?
    private var optionsEnded = false
    let subcommand: Invocation.Subcommand
    /// Whether `--` ends this subcommand's arguments (`startup run ... -- CMD`) rather than its
    /// options only.
    var endsAtDoubleDash = false
    /// What followed `--` when it ends the arguments; `nil` if there was no `--`.
    private(set) var afterDoubleDash: [String]?

    init(arguments: [String], subcommand: Invocation.Subcommand) {
        self.arguments = arguments
        self.subcommand = subcommand
    }

    /// The largest whole number an option takes (`--jobs`).
    static let maximumCount = 1_000_000

    /// Whether `--help` or `-h` comes before any `--` (after it they belong to the command).
    var wantsHelp: Bool { arguments.prefix { $0 != "--" }.contains { $0 == "--help" || $0 == "-h" } }

    /// The next option's name, splitting `--name=value` and `-j4`; `nil` at the end.
    mutating func nextOption(known: [String]) throws(UsageError) -> String? {
        var positionals: [String]?
        return try nextOption(known: known, collecting: &positionals)
    }

    /// The next option's name; arguments that are not options (and all after `--`) are added to
    /// `positionals`.
    mutating func nextOption(known: [String], positionals: inout [String]) throws(UsageError) -> String? {
        var collected: [String]? = positionals
        defer { positionals = collected ?? [] }
        return try nextOption(known: known, collecting: &collected)
    }

    private mutating func nextOption(known: [String], collecting positionals: inout [String]?) throws(UsageError) -> String? {
        if let pendingValue { throw error("unexpected value \(MessageQuoting.quoted(pendingValue))") }
        var argument: String
        while true {
            guard position < arguments.count else { return nil }
            argument = arguments[position]
            position += 1
            if positionals != nil, optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                positionals?.append(argument)
                continue
            }
            if argument == "--", endsAtDoubleDash {
                afterDoubleDash = Array(arguments[position...])
                position = arguments.count
                return nil
            }
            if positionals != nil, argument == "--" {
                optionsEnded = true
                continue
            }
            break
        }
        if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
            pendingValue = String(argument[argument.index(after: equals)...])
            argument = String(argument[..<equals])
        } else if argument.hasPrefix("-j"), argument.count > 2, !argument.hasPrefix("--") {
            pendingValue = String(argument.dropFirst(2))
            argument = "-j"
        }
        guard known.contains(argument) else {
            guard argument.hasPrefix("-") else {
                throw error("unexpected argument \(MessageQuoting.quoted(argument)); \(subcommand.rawValue) takes only options (see startup \(subcommand.rawValue) --help)")
            }
            let hint = IdentifierSuggestion.closest(to: argument, in: known.filter { $0.hasPrefix("--") })
                .map { " (did you mean \($0)?)" } ?? ""
            throw error("unknown option \(MessageQuoting.escaped(argument))\(hint)")
        }
        return argument
    }

    /// The value of the option just read.
    mutating func value(for option: String) throws(UsageError) -> String {
        if let value = pendingValue {
            pendingValue = nil
            return value
        }
        guard position < arguments.count else { throw error("\(option) needs a value") }
        position += 1
        return arguments[position - 1]
    }

    mutating func positiveInteger(for option: String) throws(UsageError) -> Int {
        let text = try value(for: option)
        guard let number = Int(text), (1...Self.maximumCount).contains(number) else {
            throw error("\(option) needs a whole number from 1 to \(Self.maximumCount), not \(MessageQuoting.quoted(text))")
        }
        return number
    }

    /// A duration with a unit: `500ms`, `2s`.
    mutating func duration(for option: String) throws(UsageError) -> Duration {
        let text = try value(for: option)
        guard let duration = DurationText.parse(text) else {
            throw error("invalid duration \(MessageQuoting.quoted(text)) for \(option): \(DurationText.problem(with: text))")
        }
        return duration
    }

    mutating func choice<Choice: RawRepresentable>(for option: String, from choices: [Choice]) throws(UsageError) -> Choice
    where Choice.RawValue == String {
        let text = try value(for: option)
        guard let choice = choices.first(where: { $0.rawValue == text }) else {
            throw error("\(option) must be one of " + choices.map(\.rawValue).joined(separator: ", ") + ", not \(MessageQuoting.quoted(text))")
        }
        return choice
    }

    func error(_ message: String) -> UsageError {
        UsageError(message: message, subcommand: subcommand)
    }
}
