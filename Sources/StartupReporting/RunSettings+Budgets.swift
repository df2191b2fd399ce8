import StartupKit

extension RunSettings {
    /// The budgets a run exceeded: the wall time's first, then the commands' in declaration
    /// order. A command over budget counts whatever its status.
    ///
    /// - Complexity: O(commands).
    public func budgetViolations(of report: StartupReport) -> [BudgetViolation] {
        var violations: [BudgetViolation] = []
        if let wallBudget, report.wallTime > wallBudget {
            violations.append(BudgetViolation(id: nil, budget: wallBudget, actual: report.wallTime))
        }
        for command in report.commands {
            if let budget = budgets[command.id], command.duration > budget {
                violations.append(BudgetViolation(id: command.id, budget: budget, actual: command.duration))
            }
        }
        return violations
    }
}
