import StartupSupport

/// A likely mistake in a plan that is not an error: the plan runs, but perhaps not as meant.
///
/// Kinds of warning are added as StartupKit grows (a minor version may add one): a `switch` over a
/// warning should have a `default`, so that code written against this version keeps compiling.
/// Most callers print ``description``, which covers every kind.
///
/// ```swift
/// func isAboutOnDemand(_ warning: PlanWarning) -> Bool {
///     switch warning {
///     case .onDemandNeededByEager: true
///     default: false
///     }
/// }
/// ```
public enum PlanWarning: Hashable, Sendable, CustomStringConvertible {
    /// A required command depends directly on an optional one: if the optional one fails, the
    /// required one is skipped and the run fails.
    case requiredDependsOnOptional(CommandID, optional: CommandID)

    /// An on-demand command that an eager command depends on, so it always runs.
    case onDemandNeededByEager(CommandID, eager: CommandID)

    /// The command the warning is about.
    public var command: CommandID {
        switch self {
        case .requiredDependsOnOptional(let command, _), .onDemandNeededByEager(let command, _): command
        }
    }

    /// A sentence that names both commands and what follows.
    public var description: String {
        switch self {
        case .requiredDependsOnOptional(let command, let optional):
            "\(MessageQuoting.quoted(command)) is required but depends on \(MessageQuoting.quoted(optional)), which is optional: "
                + "if \(MessageQuoting.quoted(optional)) fails, \(MessageQuoting.quoted(command)) is skipped and the run fails"
        case .onDemandNeededByEager(let command, let eager):
            "\(MessageQuoting.quoted(command)) is on demand but the eager \(MessageQuoting.quoted(eager)) depends on it, so it always runs"
        }
    }
}
