import StartupKit

/// A lifecycle could not be created from its modules, or a request handler failed.
public struct LifecycleError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: Hashable, Sendable { case unknownCommand, handlerFailed }
        private let value: Value

        /// A module is attached to a command the plan does not have.
        public static let unknownCommand = Code(value: .unknownCommand)
        /// A request handler threw; ``LifecycleError/underlying`` is its error.
        public static let handlerFailed = Code(value: .handlerFailed)

        /// The code's name.
        public var description: String { "\(value)" }
    }

    /// What went wrong.
    public let code: Code
    /// The command the module concerned is attached to.
    public let module: CommandID
    /// For ``Code/unknownCommand``, the closest command of the plan, if one is close.
    public let suggestion: CommandID?
    /// For ``Code/handlerFailed``, the handler's error.
    public let underlying: (any Error)?

    init(code: Code, module: CommandID, suggestion: CommandID? = nil, underlying: (any Error)? = nil) {
        self.code = code
        self.module = module
        self.suggestion = suggestion
        self.underlying = underlying
    }

    /// Two errors are equal when their codes and modules are.
    public static func == (lhs: LifecycleError, rhs: LifecycleError) -> Bool {
        lhs.code == rhs.code && lhs.module == rhs.module
    }

    /// Hashes the code and the module.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(module)
    }

    /// A sentence naming the module and, where it can, the fix.
    public var description: String {
        switch code {
        case .unknownCommand:
            let hint = suggestion.map { "; did you mean \"\($0)\"?" } ?? ""
            return "a module is attached to \"\(module)\", which is not a command of the plan\(hint)"
        default:
            return "the request handler of \"\(module)\" threw: \(underlying.map { "\($0)" } ?? "an error")"
        }
    }
}
