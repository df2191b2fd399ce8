import StartupKit
import StartupManifest
import StartupReporting

/// The budgets block after a run's summary: each budget with what it measured, the exceeded
/// ones marked; nothing when the run had no budgets.
struct BudgetRenderer {
    let run: SavedRun
    let style: Style

    func render() -> String {
        var checks: [(name: String, actual: Duration, budget: Duration)] = []
        if let wallBudget = run.settings.wallBudget { checks.append(("wall time", run.report.wallTime, wallBudget)) }
        for command in run.report.commands {
            if let budget = run.settings.budgets[command.id] { checks.append((command.id.rawValue, command.duration, budget)) }
        }
        guard !checks.isEmpty else { return "" }
        let exceeded = checks.filter { $0.actual > $0.budget }
        let within = checks.filter { $0.actual <= $0.budget }
        let nameWidth = min(32, checks.map(\.name.count).max() ?? 0)
        let headline =
            exceeded.isEmpty
            ? style.green("all \(checks.count) within budget")
            : style.red("\(exceeded.count) of \(checks.count) exceeded")
        var lines = ["", "Budgets: \(headline)"]
        func line(_ check: (name: String, actual: Duration, budget: Duration)) -> String {
            let over = check.actual > check.budget
            let mark = over ? style.red("✗") : style.green("✓")
            let excess = over ? "  over by \(DurationText.format(check.actual - check.budget))" : ""
            return "  \(mark) \(check.name.padded(to: nameWidth)) \(DurationText.format(check.actual).leftPadded(to: 7))"
                + "  budget \(DurationText.format(check.budget))\(excess)"
        }
        lines += exceeded.map(line)
        if within.count <= 10 || exceeded.isEmpty && checks.count <= 20 {
            lines += within.map(line)
        } else {
            lines.append("  \(style.green("✓")) \(within.count) more within budget")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
