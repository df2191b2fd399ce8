/// The outcome and timing of a whole start-up run.
public struct StartupReport: Sendable {
    /// How a run ended.
    public enum Status: String, Sendable, Hashable {
        /// Every required command succeeded.
        case succeeded
        /// A required command failed, timed out, was skipped or was cancelled by fail-fast.
        case failed
        /// The run itself was cancelled.
        case cancelled
    }

    /// How the run ended.
    public let status: Status
    /// Every command, in declaration order.
    public let commands: [CommandReport]
    /// From the start of the run to the end of its last command.
    public let wallTime: Duration
    /// The chain of dependent commands whose measured durations add up to the most.
    public let criticalPath: [CommandID]
    /// The sum of the measured durations along the critical path.
    public let criticalPathDuration: Duration

    private let index: [CommandID: Int]

    init(status: Status, commands: [CommandReport], wallTime: Duration, criticalPath: [CommandID],
         criticalPathDuration: Duration, index: [CommandID: Int]) {
        self.status = status
        self.commands = commands
        self.wallTime = wallTime
        self.criticalPath = criticalPath
        self.criticalPathDuration = criticalPathDuration
        self.index = index
    }

    /// The report of a command, or `nil` if the plan had no such command.
    public subscript(id: CommandID) -> CommandReport? {
        index[id].map { commands[$0] }
    }

    /// The sum of every command's duration: the time one slot would have needed.
    public var totalDuration: Duration {
        commands.reduce(.zero) { $0 + $1.duration }
    }

    /// The achieved parallelism: total duration divided by wall time (1 when nothing overlapped).
    public var parallelism: Double {
        RunFigures.parallelism(total: totalDuration, wall: wallTime)
    }

    /// The commands, ordered by start (those that never started last, by declaration).
    public var commandsByStart: [CommandReport] {
        RunFigures.byStart(commands, start: \.startOffset)
    }

    /// The required commands that did not succeed, in declaration order.
    public var failures: [CommandReport] {
        commands.filter { !$0.isOptional && !$0.status.isSuccess }
    }
}
