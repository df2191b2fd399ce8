import StartupKit

extension RunRecord {
    /// The budgets the run exceeded: the wall time's first, then the commands' in declaration
    /// order. A command over budget counts whatever its status.
    ///
    /// - Complexity: O(commands).
    public var budgetViolations: [BudgetViolation] {
        var violations: [BudgetViolation] = []
        if let wallBudget, wallTime > wallBudget {
            violations.append(BudgetViolation(id: nil, budget: wallBudget, actual: wallTime))
        }
        for command in commands {
            if let budget = command.budget, command.duration > budget {
                violations.append(BudgetViolation(id: command.id, budget: budget, actual: command.duration))
            }
        }
        return violations
    }
}
