import StartupKit

/// A run's report with the settings it ran under, as one file holds them: what the CLI saves
/// after every run (`.startup/last-run.json`) and what an app can save and read back for its own
/// runs.
///
/// The report is the one `StartupReport` type; this value only puts the ``RunSettings`` beside
/// it. Written with ``json()``, ``text(parts:)`` or ``save(to:)``, read with ``load(path:)`` or ``decode(_:file:)``.
public struct SavedRun: Sendable, Hashable {
    /// What happened.
    public var report: StartupReport
    /// How the run was set up.
    public var settings: RunSettings

    /// Pairs a report with its settings.
    public init(report: StartupReport, settings: RunSettings = RunSettings()) {
        self.report = report
        self.settings = settings
    }

    /// The budgets the run exceeded (see ``RunSettings/budgetViolations(of:)``).
    public var budgetViolations: [BudgetViolation] {
        settings.budgetViolations(of: report)
    }

    /// The saved form: ``ReportExport/json(_:settings:)`` of the report and settings.
    public func json() -> JSONOutput {
        ReportExport.json(report, settings: settings)
    }

    /// The saved form's text, as ``save(to:)`` writes it: ``json()`` pretty, ending in a line break, written
    /// by up to `parts` tasks side by side (``ReportExport/jsonText(_:settings:parts:)``).
    public func text(parts: Int = 1) async -> String {
        await ReportExport.jsonText(report, settings: settings, parts: parts)
    }
}
