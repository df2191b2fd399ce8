/// The commands given to ``StartupPlanBuilder`` do not form a valid plan; `issues` lists every
/// problem found, in declaration order.
public struct PlanError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Every problem found, ordered by the position of the command concerned.
    public let issues: [PlanIssue]

    /// Creates an error from its issues.
    public init(issues: [PlanIssue]) {
        self.issues = issues
    }

    /// One line per issue.
    public var description: String {
        issues.map(\.description).joined(separator: "\n")
    }
}
