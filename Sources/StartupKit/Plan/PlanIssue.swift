import StartupSupport

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

    /// Two commands share an identifier and at least one of them was added by a module
    /// (``StartupModule``); `nil` stands for the app's own commands. Positions count from 0.
    case duplicateIDAcrossModules(
        CommandID, firstIndex: Int, duplicateIndex: Int, firstModule: String?, duplicateModule: String?)

    /// A command depends on an identifier that was removed from the builder
    /// (``StartupPlanBuilder/remove(_:)``) and not added again; `removedBy` is the module whose
    /// registration removed it, `nil` for the app.
    case removedDependency(
        CommandID, commandIndex: Int, dependency: CommandID, dependencyIndex: Int, removedBy: String?)

    /// A command names itself among its dependencies.
    case selfDependency(CommandID, commandIndex: Int, dependencyIndex: Int)

    /// A command depends on an identifier no command has; `suggestion` is the closest existing id.
    case unknownDependency(
        CommandID, commandIndex: Int, dependency: CommandID, dependencyIndex: Int, suggestion: CommandID?)

    /// A command added by a module (``StartupModule``) depends on an identifier no command has;
    /// `suggestion` is the closest existing id, `module` the module's name.
    case unknownDependencyInModule(
        CommandID, commandIndex: Int, dependency: CommandID, dependencyIndex: Int, suggestion: CommandID?, module: String)

    /// Commands that depend on each other in a circle. The path follows dependencies and repeats
    /// its first id at the end: `["a", "b", "a"]` means a depends on b, which depends on a.
    case cycle([CommandID], commandIndex: Int)

    /// Commands that depend on each other in a circle, at least one of them added by a module
    /// (``StartupModule``): the path as in ``cycle(_:commandIndex:)``, and the module that added
    /// each command on it (`nil` for the app's own), one per id of the path.
    case cycleAcrossModules([CommandID], commandIndex: Int, modules: [String?])

    /// The declaration position of the command the issue is about (the cycle's first command).
    public var commandIndex: Int {
        switch self {
        case .invalidID(_, let index): index
        case .duplicateID(_, _, let index): index
        case .duplicateIDAcrossModules(_, _, let index, _, _): index
        case .removedDependency(_, let index, _, _, _): index
        case .selfDependency(_, let index, _): index
        case .unknownDependency(_, let index, _, _, _): index
        case .unknownDependencyInModule(_, let index, _, _, _, _): index
        case .cycle(_, let index): index
        case .cycleAcrossModules(_, let index, _): index
        }
    }

    /// A sentence that names the commands involved and, where it can, the fix.
    public var description: String {
        switch self {
        case .invalidID(let id, _):
            return CommandIDRule.problem(with: id.rawValue) ?? "invalid command id \(MessageQuoting.quoted(id))"
        case .duplicateID(let id, let first, let duplicate):
            return "duplicate id \(MessageQuoting.quoted(id)): commands \(first) and \(duplicate) (counting from 0) both use it"
        case .duplicateIDAcrossModules(let id, _, _, let first, let duplicate):
            let added =
                first == duplicate
                ? "added twice by \(Self.moduleName(first)) (is the module added twice?)"
                : "added by \(Self.moduleName(first)) and by \(Self.moduleName(duplicate))"
            return "duplicate id \(MessageQuoting.quoted(id)): \(added); "
                + "remove one with remove(\(MessageQuoting.quoted(id))) before adding the other"
        case .removedDependency(let id, _, let dependency, _, let removedBy):
            return "\(MessageQuoting.quoted(id)) depends on \(MessageQuoting.quoted(dependency)), which was removed by "
                + "\(Self.moduleName(removedBy)); add \(MessageQuoting.quoted(dependency)) again or drop the dependency "
                + "(or make it an `after` edge, which a removed command does not hold up)"
        case .selfDependency(let id, _, _):
            return "\(MessageQuoting.quoted(id)) depends on itself"
        case .unknownDependency(let id, _, let dependency, _, let suggestion):
            let hint = suggestion.map { "; did you mean \(MessageQuoting.quoted($0))?" } ?? ""
            return "unknown dependency \(MessageQuoting.quoted(dependency)) of \(MessageQuoting.quoted(id))\(hint)"
        case .unknownDependencyInModule(let id, _, let dependency, _, let suggestion, let module):
            let hint = suggestion.map { "; did you mean \(MessageQuoting.quoted($0))?" } ?? ""
            return "unknown dependency \(MessageQuoting.quoted(dependency)) of \(MessageQuoting.quoted(id)), "
                + "added by \(Self.moduleName(module))\(hint)"
        case .cycle(let path, _):
            return "dependency cycle: " + path.map { MessageQuoting.escaped($0.rawValue) }.joined(separator: " -> ")
        case .cycleAcrossModules(let path, _, let modules):
            // Each command once (the path repeats its first at the end), grouped by module in order of appearance.
            var groups: [(module: String?, ids: [CommandID])] = []
            for (id, module) in zip(path.dropLast(), modules) {
                if let group = groups.firstIndex(where: { $0.module == module }) {
                    groups[group].ids.append(id)
                } else {
                    groups.append((module, [id]))
                }
            }
            let added = groups.map { group in
                group.ids.map { MessageQuoting.quoted($0) }.joined(separator: ", ") + " by \(Self.moduleName(group.module))"
            }
            return "dependency cycle: " + path.map { MessageQuoting.escaped($0.rawValue) }.joined(separator: " -> ")
                + " (added: " + added.joined(separator: "; ") + ")"
        }
    }
}

extension PlanIssue {
    /// A module's name as a message shows it; the app's own commands are "the app".
    fileprivate static func moduleName(_ module: String?) -> String {
        module.map { MessageQuoting.escaped($0) } ?? "the app"
    }
}
