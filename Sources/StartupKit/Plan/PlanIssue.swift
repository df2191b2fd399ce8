/// One problem the builder found in a set of commands.
///
/// Kinds of problem are added as StartupKit grows (a minor version may add one): a `switch` over
/// an issue should have a `default`, so that code written against this version keeps compiling.
/// Most callers print ``description``, which covers every kind.
///
/// ```swift
/// func line(for issue: PlanIssue) -> String {
///     switch issue {
///     case .cycle(let path, _): "cycle through \(path.count - 1) commands"
///     default: issue.description
///     }
/// }
/// ```
public enum PlanIssue: Hashable, Sendable, CustomStringConvertible {
    /// A command's id is empty, longer than 200 characters, or has spaces or control characters:
    /// the rule a manifest and a saved report use too.
    case invalidID(CommandID, commandIndex: Int)

    /// Two commands share an identifier; positions count from 0 in declaration order.
    case duplicateID(CommandID, firstIndex: Int, duplicateIndex: Int)

    /// A command names itself among its dependencies.
    case selfDependency(CommandID, commandIndex: Int, dependencyIndex: Int)

    /// A command depends on an identifier no command has; `suggestion` is the closest existing id.
    case unknownDependency(
        CommandID, commandIndex: Int, dependency: CommandID, dependencyIndex: Int, suggestion: CommandID?)

    /// Commands that depend on each other in a circle. The path follows dependencies and repeats
    /// its first id at the end: `["a", "b", "a"]` means a depends on b, which depends on a.
    case cycle([CommandID], commandIndex: Int)

    /// The declaration position of the command the issue is about (the cycle's first command).
    public var commandIndex: Int {
        switch self {
        case .invalidID(_, let index): index
        case .duplicateID(_, _, let index): index
        case .selfDependency(_, let index, _): index
        case .unknownDependency(_, let index, _, _, _): index
        case .cycle(_, let index): index
        }
    }

    /// A sentence that names the commands involved and, where it can, the fix.
    public var description: String {
        switch self {
        case .invalidID(let id, _):
            return CommandIDRule.problem(with: id.rawValue) ?? "invalid command id \(MessageQuoting.quoted(id))"
        case .duplicateID(let id, let first, let duplicate):
            return "duplicate id \(MessageQuoting.quoted(id)): commands \(first) and \(duplicate) (counting from 0) both use it"
        case .selfDependency(let id, _, _):
            return "\(MessageQuoting.quoted(id)) depends on itself"
        case .unknownDependency(let id, _, let dependency, _, let suggestion):
            let hint = suggestion.map { "; did you mean \(MessageQuoting.quoted($0))?" } ?? ""
            return "unknown dependency \(MessageQuoting.quoted(dependency)) of \(MessageQuoting.quoted(id))\(hint)"
        case .cycle(let path, _):
            return "dependency cycle: " + path.map { MessageQuoting.escaped($0.rawValue) }.joined(separator: " -> ")
        }
    }
}
