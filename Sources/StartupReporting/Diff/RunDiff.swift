import StartupKit

/// Two runs compared: each command's duration change, the critical paths, and what moved the
/// wall time.
///
/// A change's *effect* is how much it alone moved the critical path: the later run's critical
/// path minus what it would be with only that command back at its earlier duration (on the later
/// run's graph; an added command back at zero, a removed one measured on the earlier graph). A
/// slower command with slack to spare has no effect; one on the critical path moves it by its
/// whole change, or less where another chain takes over.
public struct RunDiff: Sendable {
    /// One command in either run.
    public struct Entry: Sendable {
        /// The command.
        public let id: CommandID
        /// The command in the earlier run; `nil` if it was added.
        public let before: CommandReport?
        /// The command in the later run; `nil` if it was removed.
        public let after: CommandReport?
        /// How much this change alone moved the critical path.
        public let effect: Duration

        /// The duration change; `nil` for an added or removed command.
        public var change: Duration? {
            guard let before, let after else { return nil }
            return after.duration - before.duration
        }

        /// The change as a share of the earlier duration; `nil` without one.
        public var changeRatio: Double? {
            guard let change, let before, before.duration > .zero else { return nil }
            return change / before.duration
        }
    }

    /// The earlier run.
    public let before: StartupReport
    /// The later run.
    public let after: StartupReport
    /// The later run's commands in its order, then those only the earlier run had.
    public let entries: [Entry]

    /// How much the wall time changed.
    public var wallChange: Duration { after.wallTime - before.wallTime }
    /// How much the critical path's length changed.
    public var criticalPathChange: Duration { after.criticalPathDuration - before.criticalPathDuration }
    /// The part of the wall time's change outside the critical path: start-up overhead, waiting
    /// for slots.
    public var outsideCriticalPathChange: Duration { wallChange - criticalPathChange }

    /// Whether the later run's critical path is a different chain of commands.
    public var criticalPathChanged: Bool { before.criticalPath != after.criticalPath }

    /// How much the commands of the earlier critical path changed, together (a removed command
    /// counts as taking no time).
    public var oldPathChange: Duration {
        before.criticalPath.reduce(.zero) { sum, id in
            sum + (after[id]?.duration ?? .zero) - (before[id]?.duration ?? .zero)
        }
    }

    /// The rest of the critical path's change: how much longer the new critical chain is than
    /// the old chain now takes. Zero when the chain stayed the same.
    ///
    /// `criticalPathChange == oldPathChange + newPathLead`, exactly.
    public var newPathLead: Duration { criticalPathChange - oldPathChange }

    /// Compares two runs, by their reports.
    ///
    /// - Complexity: O(commands + edges) per command on the critical path whose change is
    ///   measured, O(1) for every other.
    public init(before: StartupReport, after: StartupReport) {
        self.before = before
        self.after = after
        let afterEffects = Self.effects(in: after) { id in before[id]?.duration ?? .zero }
        var entries = after.commands.map { command in
            Entry(id: command.id, before: before[command.id], after: command, effect: afterEffects[command.id] ?? .zero)
        }
        let removed = before.commands.filter { after[$0.id] == nil }
        if !removed.isEmpty {
            let removedIDs = Set(removed.map(\.id))
            // Removing a command is its duration going to zero, measured on the earlier graph.
            let saved = Self.effects(in: before) { id in removedIDs.contains(id) ? .zero : before[id]!.duration }
            entries += removed.map { Entry(id: $0.id, before: $0, after: nil, effect: .zero - (saved[$0.id] ?? .zero)) }
        }
        self.entries = entries
    }

    /// For each command of `report`, by how much its critical path would shrink if that command
    /// alone took `other(id)` instead (negative when it would grow).
    private static func effects(in report: StartupReport, other: (CommandID) -> Duration) -> [CommandID: Duration] {
        guard let plan = try? report.makePlan() else { return [:] }
        let timing = plan.timing()
        let length = timing.criticalPathDuration
        var effects: [CommandID: Duration] = [:]
        for command in report.commands {
            guard let entry = timing[command.id] else { continue }
            let revert = other(command.id) - entry.duration
            if revert == .zero { continue }
            if revert > .zero {
                // Longer: the longest chain through it grows by what its slack cannot absorb.
                let grown = max(length, length - entry.slack + revert)
                effects[command.id] = length - grown
            } else if entry.slack == .zero {
                // Shorter and critical: another chain may take over; measure.
                effects[command.id] = length - plan.timing(durations: [command.id: other(command.id)]).criticalPathDuration
            }
        }
        return effects
    }
}
