import StartupSupport

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
    /// The module that added the command that asked (``StartupModule/name``); `nil` for the
    /// app's own commands.
    public let module: String?
    /// The module that added the requested command; `nil` for the app's own, and for a command
    /// not in the plan.
    public let requestedModule: String?

    init(
        code: Code, command: CommandID, requested: CommandID, detail: String? = nil, module: String? = nil,
        requestedModule: String? = nil
    ) {
        self.code = code
        self.command = command
        self.requested = requested
        self.detail = detail
        self.module = module
        self.requestedModule = requestedModule
    }

    /// Two errors are equal when their codes are.
    public static func == (lhs: StartupContextError, rhs: StartupContextError) -> Bool {
        lhs.code == rhs.code
    }

    /// Hashes the code.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
    }

    /// A sentence naming both commands, and the modules that added them where modules did.
    public var description: String {
        let asking = "\"\(command)\"" + Self.addedBy(module)
        let asked = "\"\(requested)\"" + Self.addedBy(requestedModule)
        return switch code {
        case .unknownCommand:
            "\(asking) asked for the output of \(asked), which is not in the plan"
        case .notADependency:
            "\(asking) asked for the output of \(asked), which is not among its dependencies; add \"\(requested)\" to its dependencies"
        case .onlyOrdered:
            "\(asking) asked for the output of \(asked), which it only runs after (an order-only edge, which hands over no output); make \"\(requested)\" a dependency to read its output"
        default:
            "\(asking) asked for the output of \(asked): \(detail ?? "wrong type")"
        }
    }

    /// ` (added by AdsKit)` for a command a module added; nothing for the app's own.
    private static func addedBy(_ module: String?) -> String {
        module.map { " (added by \(MessageQuoting.escaped($0)))" } ?? ""
    }
}
