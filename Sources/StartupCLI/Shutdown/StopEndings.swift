import StartupKit

/// How each stopped service's processes ended, for the shutdown's text and JSON: by themselves after SIGTERM (or
/// the stop line), or killed because some were still there when the grace period ended. Killing is never shown
/// as a clean stop.
package final class StopEndings: Sendable {
    /// How one stop ended.
    package enum Ending: Sendable, Hashable {
        /// Every process ended by itself after SIGTERM, within the grace period.
        case exitedAfterSignal
        /// Every process ended by itself after the stop line (or its SIGTERM after the line's time).
        case exitedAfterStopLine
        /// `processes` were still there when the grace period ended (or a second interrupt came) and got SIGKILL.
        case killed(processes: Int)

        /// How a stopped service's `outcome` ended, or `nil` if it was not stopped.
        init?(_ outcome: ProcessOutcome, hasStopLine: Bool) {
            guard outcome.wasTerminated else { return nil }
            if outcome.killedProcesses > 0 {
                self = .killed(processes: outcome.killedProcesses)
            } else {
                self = hasStopLine && outcome.cancellation == .leftToStopLine ? .exitedAfterStopLine : .exitedAfterSignal
            }
        }

        /// `exited after SIGTERM`, `exited after its stop line`, `killed after the grace period (2 processes)`.
        var description: String {
            switch self {
            case .exitedAfterSignal: "exited after SIGTERM"
            case .exitedAfterStopLine: "exited after its stop line"
            case .killed(let count): "killed after the grace period (\(count) process\(count == 1 ? "" : "es"))"
            }
        }

        /// The name in the JSON: `exitedAfterSigterm`, `exitedAfterStopLine` or `killed`.
        var name: String {
            switch self {
            case .exitedAfterSignal: "exitedAfterSigterm"
            case .exitedAfterStopLine: "exitedAfterStopLine"
            case .killed: "killed"
            }
        }

        /// Whether processes had to be killed.
        var isKilled: Bool {
            if case .killed = self { return true }
            return false
        }
    }

    /// Guards the endings recorded so far, by service.
    private let endings = Locked<[CommandID: Ending]>([:])

    /// Records how the stop of `id` ended.
    func record(_ ending: Ending, for id: CommandID) {
        endings.withLock { $0[id] = ending }
    }

    /// How the stop of `id` ended, if it was recorded.
    func ending(of id: CommandID) -> Ending? {
        endings.withLock { $0[id] }
    }
}
