import StartupKit

/// A run's report as `startup run` saves it (`.startup/last-run.json`) and as `startup plot`,
/// `startup diff` and `startup plan` read it back: the report's timings plus what a later reader
/// needs, such as each command's dependencies and budgets.
///
/// Made from a live run with ``init(report:plan:manifest:manifestPath:wallBudget:jobs:isSimulated:)``,
/// written with ``json()``, read with ``load(path:)`` or ``decode(_:file:)``.
public struct RunRecord: Sendable, Hashable {
    /// How the run ended.
    public var status: StartupReport.Status
    /// From the start of the run to the end of its last command.
    public var wallTime: Duration
    /// Every command, in declaration order.
    public var commands: [RunRecordCommand]
    /// The chain of dependent commands whose measured durations add up to the most.
    public var criticalPath: [CommandID]
    /// The sum of the measured durations along the critical path.
    public var criticalPathDuration: Duration
    /// The path of the manifest that was run, if known.
    public var manifest: String?
    /// Whether the run slept for estimates (`--simulate`) instead of running commands.
    public var isSimulated: Bool
    /// The slot limit of the run; `nil` for unlimited.
    public var jobs: Int?
    /// The budget of the whole run's wall time (`--budget`), if any.
    public var wallBudget: Duration?

    /// Creates a record.
    public init(status: StartupReport.Status, wallTime: Duration, commands: [RunRecordCommand], criticalPath: [CommandID],
                criticalPathDuration: Duration, manifest: String? = nil, isSimulated: Bool = false, jobs: Int? = nil,
                wallBudget: Duration? = nil) {
        self.status = status
        self.wallTime = wallTime
        self.commands = commands
        self.criticalPath = criticalPath
        self.criticalPathDuration = criticalPathDuration
        self.manifest = manifest
        self.isSimulated = isSimulated
        self.jobs = jobs
        self.wallBudget = wallBudget
    }

    /// The commands by id.
    ///
    /// - Complexity: O(commands).
    public var commandsByID: [CommandID: RunRecordCommand] {
        Dictionary(commands.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The sum of every command's duration.
    public var totalDuration: Duration {
        commands.reduce(.zero) { $0 + $1.duration }
    }

    /// Total duration divided by wall time; 0 for an empty run.
    public var parallelism: Double {
        RunFigures.parallelism(total: totalDuration, wall: wallTime)
    }

    /// The commands ordered by start; those that never started last, in declaration order.
    public var commandsByStart: [RunRecordCommand] {
        RunFigures.byStart(commands, start: \.startOffset)
    }
}
