/// The outcome and timing of a whole start-up run: the one report type, whether it comes from a
/// live run, is made by hand, or is read back from a saved file.
public struct StartupReport: Sendable, Hashable {
    /// How a run ended.
    ///
    /// Complete: a run succeeds, fails or is cancelled; why is in its commands. No case will be
    /// added before a major version, so a `switch` over it may list every case without a `default`.
    public enum Status: String, Sendable, Hashable, CaseIterable {
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
    /// The chain of dependent commands whose measured durations add up to the most. It follows
    /// dependencies and the `after` edges a command waited on: one to a command that did not run
    /// is no edge.
    public let criticalPath: [CommandID]
    /// The sum of the measured durations along the critical path.
    public let criticalPathDuration: Duration

    private let index: [CommandID: Int]

    /// Creates a report.
    ///
    /// - Parameters:
    ///   - status: How the run ended.
    ///   - commands: Every command, in declaration order, each id once.
    ///   - wallTime: From the start of the run to the end of its last command.
    ///   - criticalPath: The measured critical path, first command first.
    ///   - criticalPathDuration: The sum of the durations along it.
    /// - Complexity: O(commands).
    public init(
        status: Status, commands: [CommandReport], wallTime: Duration, criticalPath: [CommandID],
        criticalPathDuration: Duration
    ) {
        var index: [CommandID: Int] = [:]
        index.reserveCapacity(commands.count)
        for (position, command) in commands.enumerated() where index[command.id] == nil { index[command.id] = position }
        self.init(
            status: status, commands: commands, wallTime: wallTime, criticalPath: criticalPath,
            criticalPathDuration: criticalPathDuration, index: index)
    }

    /// Creates a report whose positions by id are known already (the plan's).
    init(
        status: Status, commands: [CommandReport], wallTime: Duration, criticalPath: [CommandID],
        criticalPathDuration: Duration, index: [CommandID: Int]
    ) {
        self.status = status
        self.commands = commands
        self.wallTime = wallTime
        self.criticalPath = criticalPath
        self.criticalPathDuration = criticalPathDuration
        self.index = index
    }

    /// The report of a command, or `nil` if the run had no such command.
    public subscript(id: CommandID) -> CommandReport? {
        index[id].map { commands[$0] }
    }

    /// The position of a command in ``commands``, or `nil` if the run had no such command.
    func index(of id: CommandID) -> Int? {
        index[id]
    }

    /// The sum of every command's duration: the time one slot would have needed.
    public var totalDuration: Duration {
        commands.reduce(.zero) { $0 + $1.duration }
    }

    /// The achieved parallelism: total duration divided by wall time (1 when nothing overlapped);
    /// 0 for no wall time.
    public var parallelism: Double {
        let wall = wallTime / .nanoseconds(1)
        return wall > 0 ? (totalDuration / .nanoseconds(1)) / wall : 0
    }

    /// The commands, ordered by start (those that never started last, by declaration).
    ///
    /// - Complexity: O(*n* log *n*).
    public var commandsByStart: [CommandReport] {
        commands.enumerated().sorted { lhs, rhs in
            switch (lhs.element.startOffset, rhs.element.startOffset) {
            case (let left?, let right?): (left, lhs.offset) < (right, rhs.offset)
            case (.some, nil): true
            case (nil, .some): false
            case (nil, nil): lhs.offset < rhs.offset
            }
        }.map(\.element)
    }

    /// The required commands that did not succeed, in declaration order: what fails a run.
    public var failures: [CommandReport] {
        commands.filter { !$0.isOptional && $0.status.isFailure }
    }

    /// Two reports are equal when every field is; the index by id follows from the commands.
    public static func == (lhs: StartupReport, rhs: StartupReport) -> Bool {
        lhs.status == rhs.status && lhs.commands == rhs.commands && lhs.wallTime == rhs.wallTime
            && lhs.criticalPath == rhs.criticalPath && lhs.criticalPathDuration == rhs.criticalPathDuration
    }

    /// Hashes every field but the index.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(status)
        hasher.combine(commands)
        hasher.combine(wallTime)
        hasher.combine(criticalPath)
        hasher.combine(criticalPathDuration)
    }
}
