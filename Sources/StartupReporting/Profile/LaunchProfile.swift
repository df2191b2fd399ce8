import StartupKit

/// What past launches measured, per command, for planning the next one: record each launch's
/// report, save the profile, and apply it to the next launch's plan so the scheduler's
/// critical-path-first order follows what the app really does on this device.
///
/// ```swift
/// var profile = try LaunchProfile.load(path: profilePath)   // a missing file is an empty profile
/// let report = await StartupOrchestrator(profile.applied(to: plan), options: options).run()
/// profile.record(report)
/// try profile.save(to: profilePath)                        // atomically
/// ```
///
/// Each command keeps its last ``launchesKept`` durations (10 by default), from launches where
/// it succeeded; its estimate is their median. Applied to a plan, a command without a declared
/// estimate gets the learned one (every command does with ``preferMeasured``), and the run's
/// report says where each estimate came from (`CommandReport.estimate`).
///
/// A profile is keyed by command id, not tied to one plan: commands it knows that a plan lacks
/// are left out when it is applied (and kept, for the plans that have them), and a plan's
/// commands it has never seen keep their declared estimates. A profile recorded from another
/// plan changes nothing in a plan with none of its ids.
public struct LaunchProfile: Sendable, Hashable {
    /// How many of each command's most recent durations are kept: 10 by default.
    public var launchesKept: Int {
        didSet {
            precondition(launchesKept > 0, "a launch profile keeps at least one launch")
            recent = recent.mapValues { Array($0.suffix(launchesKept)) }
        }
    }
    /// Whether learned estimates replace declared ones too; by default a declared estimate wins.
    public var preferMeasured: Bool

    /// Each command's recent durations, oldest first.
    private var recent: [CommandID: [Duration]]

    /// An empty profile.
    ///
    /// - Parameters:
    ///   - launchesKept: How many of each command's most recent durations to keep.
    ///   - preferMeasured: Whether learned estimates replace declared ones too.
    /// - Precondition: `launchesKept` is positive.
    public init(launchesKept: Int = 10, preferMeasured: Bool = false) {
        precondition(launchesKept > 0, "a launch profile keeps at least one launch")
        self.launchesKept = launchesKept
        self.preferMeasured = preferMeasured
        self.recent = [:]
    }

    /// A profile holding these durations, each command's oldest first (as a profile file holds
    /// them); only the last `launchesKept` of each are kept.
    init(durations: [CommandID: [Duration]], launchesKept: Int = 10) {
        self.init(launchesKept: launchesKept)
        recent = durations.filter { !$0.value.isEmpty }.mapValues { Array($0.suffix(launchesKept)) }
    }

    /// The commands the profile has durations for, sorted.
    public var ids: [CommandID] {
        recent.keys.sorted { $0.rawValue < $1.rawValue }
    }

    /// A command's recent durations, oldest first; empty for a command the profile has not seen.
    public func durations(of id: CommandID) -> [Duration] {
        recent[id] ?? []
    }

    /// Adds a launch: the duration of every command that succeeded in it (for a service, its time
    /// to ready), dropping each command's oldest beyond ``launchesKept``. Commands that failed,
    /// were skipped or cancelled, or were not requested add nothing: their time says little of the
    /// next launch.
    ///
    /// - Complexity: O(commands).
    public mutating func record(_ report: StartupReport) {
        for command in report.commands where command.status.isSuccess && command.startOffset != nil {
            var durations = recent[command.id] ?? []
            durations.append(command.duration)
            if durations.count > launchesKept { durations.removeFirst(durations.count - launchesKept) }
            recent[command.id] = durations
        }
    }

    /// The learned estimate of a command: the median of its recent durations (of an even number,
    /// the mean of the middle two); `nil` for a command the profile has not seen.
    ///
    /// - Complexity: O(*k* log *k*) for *k* kept durations.
    public func estimate(for id: CommandID) -> Duration? {
        guard let durations = recent[id], !durations.isEmpty else { return nil }
        let sorted = durations.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The plan with learned estimates: each of its commands the profile has seen and that
    /// declares no estimate (any of them, with ``preferMeasured``) gets ``estimate(for:)``,
    /// marked as learned from the number of launches it was learned from. Ids the plan does
    /// not have are ignored.
    ///
    /// - Complexity: O(commands + edges + kept durations).
    public func applied(to plan: StartupPlan) -> StartupPlan {
        var learned: [CommandID: CommandEstimate] = [:]
        for (id, durations) in recent where plan.contains(id) {
            guard preferMeasured || plan.options(of: id).estimate == nil, let estimate = estimate(for: id) else { continue }
            learned[id] = .learned(estimate, launches: durations.count)
        }
        return plan.replacingEstimates(learned)
    }
}
