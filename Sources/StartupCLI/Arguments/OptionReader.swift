import StartupKit
import StartupSupport

/// Walks the arguments of one subcommand: each option through its declaration, taking its value as
/// the next argument or after `=` (`--jobs 4`, `--jobs=4`) or joined to its short form (`-j4`),
/// and what is not an option as an operand.
struct OptionReader {
    private let arguments: [String]
    private var position = 0
    /// The value given with `=` or joined to a short form, until the option takes it.
    private var pendingValue: String?
    /// The subcommand whose arguments these are, for messages.
    let subcommand: Invocation.Subcommand

    /// A reader of `arguments`, the arguments after the subcommand.
    init(arguments: [String], subcommand: Invocation.Subcommand) {
        self.arguments = arguments
        self.subcommand = subcommand
    }

    /// The largest whole number an option takes (`--jobs`).
    static let maximumCount = 1_000_000

    /// What a subcommand takes besides its options.
    enum Operands {
        /// Nothing: an argument that is not an option is an error.
        case none
        /// Operands among the options (targets, files); `--` ends the options.
        case some
        /// Operands among the options; `--` ends them, and what follows is a command to run
        /// (`startup run ... -- CMD`).
        case someThenCommand
    }

    /// The operands read, in order, and what followed `--` when it starts a command.
    struct Remainder {
        /// The arguments that are not options, in the order given.
        var operands: [String] = []
        /// What followed `--` for ``Operands/someThenCommand``; `nil` if there was no `--`.
        var command: [String]?
    }

    /// Whether `--help` or `-h` comes before any `--` (after it they belong to the command).
    var wantsHelp: Bool {
        arguments.prefix { $0 != "--" }.contains { OptionDescriptor.subcommandHelp.names.contains($0) }
    }

    /// Reads every argument: each option through its declaration in `declarations`, into
    /// `options`; the rest as the subcommand's operands (``OptionDeclarations/operands(of:)``).
    ///
    /// - Throws: ``UsageError`` for an unknown option (with the closest name), a missing or bad
    ///   value, a value given to a flag, or an operand the subcommand does not take.
    mutating func read<Options>(
        _ declarations: [OptionSpec<Options>], into options: inout Options
    ) throws(UsageError) -> Remainder {
        let operands = OptionDeclarations.operands(of: subcommand)
        var remainder = Remainder()
        var optionsEnded = false
        while position < arguments.count {
            let argument = arguments[position]
            position += 1
            if operands != .none, optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                remainder.operands.append(argument)
            } else if argument == "--", operands == .someThenCommand {
                remainder.command = Array(arguments[position...])
                position = arguments.count
            } else if argument == "--", operands == .some {
                optionsEnded = true
            } else {
                let (name, declaration) = try option(argument, in: declarations)
                try declaration.read(&self, name, &options)
                if let pendingValue { throw error("unexpected value \(MessageQuoting.quoted(pendingValue))") }
            }
        }
        return remainder
    }

    /// The declaration `argument` names, with the name as written; splits `--name=value` and a
    /// value joined to a short form (`-j4`).
    private mutating func option<Options>(
        _ argument: String, in declarations: [OptionSpec<Options>]
    ) throws(UsageError) -> (String, OptionSpec<Options>) {
        var name = argument
        if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
            pendingValue = String(argument[argument.index(after: equals)...])
            name = String(argument[..<equals])
        } else if !argument.hasPrefix("--"), argument.count > 2,
            let joined = declarations.first(where: { $0.descriptor.value != nil && $0.descriptor.shortName == String(argument.prefix(2)) })
        {
            pendingValue = String(argument.dropFirst(2))
            name = String(argument.prefix(2))
            return (name, joined)
        }
        if let declaration = declarations.first(where: { $0.descriptor.names.contains(name) }) {
            return (name, declaration)
        }
        guard name.hasPrefix("-") else {
            throw error(
                "unexpected argument \(MessageQuoting.quoted(name)); \(subcommand.rawValue) takes only options (see startup \(subcommand.rawValue) --help)"
            )
        }
        let longNames = declarations.map(\.descriptor).filter { !$0.isHidden }.map(\.name)
        let hint = IdentifierSuggestion.closest(to: name, in: longNames).map { " (did you mean \($0)?)" } ?? ""
        throw error("unknown option \(MessageQuoting.escaped(name))\(hint)")
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

    /// The value of the option just read, as a whole number from 1 to ``maximumCount``.
    mutating func positiveInteger(for option: String) throws(UsageError) -> Int {
        let text = try value(for: option)
        guard let number = Int(text), (1...Self.maximumCount).contains(number) else {
            throw error("\(option) needs a whole number from 1 to \(Self.maximumCount), not \(MessageQuoting.quoted(text))")
        }
        return number
    }

    /// The value of the option just read, as a duration with a unit: `500ms`, `2s`, `1h`; at most `limit` (the
    /// longest, and how the message writes it) when there is one.
    mutating func duration(
        for option: String, atMost limit: (duration: Duration, written: String)? = nil
    ) throws(UsageError) -> Duration {
        let text = try value(for: option)
        guard let duration = DurationText.parse(text) else {
            throw error("invalid duration \(MessageQuoting.quoted(text)) for \(option): \(DurationText.problem(with: text))")
        }
        if let limit, duration > limit.duration {
            throw error("invalid duration \(MessageQuoting.quoted(text)) for \(option): too long; it is at most \(limit.written)")
        }
        return duration
    }

    /// The value of the option just read, as one of `choices` by its raw value.
    mutating func choice<Choice: RawRepresentable>(for option: String, from choices: [Choice]) throws(UsageError) -> Choice
    where Choice.RawValue == String {
        let text = try value(for: option)
        guard let choice = choices.first(where: { $0.rawValue == text }) else {
            throw error(
                "\(option) must be one of " + choices.map(\.rawValue).joined(separator: ", ") + ", not \(MessageQuoting.quoted(text))")
        }
        return choice
    }

    /// A usage error of this subcommand.
    func error(_ message: String) -> UsageError {
        UsageError(message: message, subcommand: subcommand)
    }
}
