import StartupKit

extension RunRecord {
    /// The record as JSON: every key of ``ReportExport/json(_:)``, in its order and with its
    /// meaning, plus `dependencies` and `budgetMs` per command and `manifest`, `simulated`,
    /// `jobs`, `wallBudgetMs` and `budgetViolations` at the top. This is what `startup run` saves
    /// and what `startup run --format json` prints.
    ///
    /// - Complexity: O(commands + edges).
    public func json() -> JSONOutput {
        .object(ReportExport.members(of: self) { command in
            var extras: [(key: String, value: JSONOutput)] = [("dependencies", .array(command.dependencies.map { .string($0.rawValue) }))]
            if let budget = command.budget { extras.append(("budgetMs", .milliseconds(budget))) }
            return extras
        } + [
            ("manifest", manifest.map(JSONOutput.string) ?? .null),
            ("simulated", .bool(isSimulated)),
            ("jobs", jobs.map(JSONOutput.integer) ?? .null),
            ("wallBudgetMs", wallBudget.map(JSONOutput.milliseconds) ?? .null),
            ("budgetViolations", .array(budgetViolations.map { violation in
                .object([
                    ("id", violation.id.map { .string($0.rawValue) } ?? .null),
                    ("budgetMs", .milliseconds(violation.budget)),
                    ("actualMs", .milliseconds(violation.actual)),
                ])
            })),
        ])
    }
}
