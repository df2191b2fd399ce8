/// A command asked its context for an output it cannot have.
public struct StartupContextError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: Hashable, Sendable { case unknownCommand, notADependency, outputTypeMismatch, onlyOrdered }
        private let value: Value

        /// No command of the plan has the requested identifier.
        public static let unknownCommand = Code(value: .unknownCommand)
        /// The requested command is not among the asking command's (transitive) dependencies.
        public static let notADependency = Code(value: .notADependency)
        /// The asking command only runs `after` the requested one (an order-only edge), which
        /// orders the two but hands over no output.
        public static let onlyOrdered = Code(value: .onlyOrdered)
        /// The requested command's output has another type than the one asked for.
        public static let outputTypeMismatch = Code(value: .outputTypeMismatch)

        /// The code's name.
        public var description: String { "\(value)" }
    }

    /// What went wrong.
    public let code: Code
    /// The command that asked.
    public let command: CommandID
    /// The command whose output it asked for.
    public let requested: CommandID
    /// More about the problem, such as the types involved.
    public let detail: String?

    init(code: Code, command: CommandID, requested: CommandID, detail: String? = nil) {
        self.code = code
        self.command = command
        self.requested = requested
        self.detail = detail
    }

    /// Two errors are equal when their codes are.
    public static func == (lhs: StartupContextError, rhs: StartupContextError) -> Bool {
        lhs.code == rhs.code
    }

    /// Hashes the code.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
    }

    /// A sentence naming both commands.
    public var description: String {
        switch code {
        case .unknownCommand:
            "\"\(command)\" asked for the output of \"\(requested)\", which is not in the plan"
        case .notADependency:
            "\"\(command)\" asked for the output of \"\(requested)\", which is not among its dependencies; add \"\(requested)\" to its dependencies"
        case .onlyOrdered:
            "\"\(command)\" asked for the output of \"\(requested)\", which it only runs after (an order-only edge, which hands over no output); make \"\(requested)\" a dependency to read its output"
        default:
            "\"\(command)\" asked for the output of \"\(requested)\": \(detail ?? "wrong type")"
        }
    }
}
