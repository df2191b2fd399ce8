import StartupKit

/// How a run was set up, beside what its `StartupReport` says happened: what ran it, with how
/// many slots, and the budgets it was held to. Saved with the report (``SavedRun``); every field
/// has a default for a run that had no such setting.
public struct RunSettings: Sendable, Hashable {
    /// The path of the manifest that was run, if there was one.
    public var manifestPath: String?
    /// Whether the commands only slept for their estimates instead of doing their work.
    public var isSimulated: Bool
    /// The slot limit of the run (`maxConcurrency`); `nil` for unlimited.
    public var jobs: Int?
    /// The budget of the whole run's wall time, if any.
    public var wallBudget: Duration?
    /// The budget of each command that has one.
    public var budgets: [CommandID: Duration]

    /// Creates settings; nothing is set unless given.
    public init(
        manifestPath: String? = nil, isSimulated: Bool = false, jobs: Int? = nil, wallBudget: Duration? = nil,
        budgets: [CommandID: Duration] = [:]
    ) {
        self.manifestPath = manifestPath
        self.isSimulated = isSimulated
        self.jobs = jobs
        self.wallBudget = wallBudget
        self.budgets = budgets
    }
}
