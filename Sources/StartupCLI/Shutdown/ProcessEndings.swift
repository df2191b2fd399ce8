import StartupKit
import StartupSupport

/// How the processes of each stopped command and service ended, and each end of a service that a restart followed, for
/// the progress lines, the shutdown's text and the JSON. A stop ends with every process gone by itself after SIGTERM
/// (or the stop line), or with some killed: still there when the grace period ended, stopped with no grace period, or
/// there when a second interrupt came. Killing is never shown as a clean stop.
package final class ProcessEndings: Sendable {
    /// How one stop ended.
    package enum StopEnding: Sendable, Hashable {
        /// Every process ended by itself after SIGTERM, within the grace period.
        case exitedAfterSignal
        /// Every process ended by itself after the stop line (or its SIGTERM after the line's time).
        case exitedAfterStopLine
        /// `processes` were still there and got SIGKILL, for `cause`.
        case killed(processes: Int, cause: ProcessKill.Cause)

        /// How a stopped service's `outcome` ended, or `nil` if it was not stopped.
        init?(_ outcome: ProcessOutcome, hasStopLine: Bool) {
            guard outcome.wasTerminated else { return nil }
            if let kill = outcome.kill, kill.processes > 0 {
                self = .killed(processes: kill.processes, cause: kill.cause)
            } else {
                self = hasStopLine && outcome.cancellation == .leftToStopLine ? .exitedAfterStopLine : .exitedAfterSignal
            }
        }

        /// `exited after SIGTERM`, `exited after its stop line`, `killed after the grace period (2 processes)`,
        /// `killed at the second interrupt (1 process)`, `killed with no grace period (1 process)`.
        var description: String {
            switch self {
            case .exitedAfterSignal: "exited after SIGTERM"
            case .exitedAfterStopLine: "exited after its stop line"
            case .killed(let count, let cause): "killed \(Self.phrase(cause)) (\(count) process\(count == 1 ? "" : "es"))"
            }
        }

        /// Why processes were killed, as it follows "killed": `after the grace period`, `at the second interrupt`,
        /// `with no grace period`.
        static func phrase(_ cause: ProcessKill.Cause) -> String {
            switch cause {
            case .gracePeriodEnded: "after the grace period"
            case .secondInterrupt: "at the second interrupt"
            case .noGracePeriod: "with no grace period"
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

        /// Why processes had to be killed; `nil` if none was.
        var killCause: ProcessKill.Cause? {
            if case .killed(_, let cause) = self { return cause }
            return nil
        }
    }

    /// An end of a service that a restart followed.
    struct Restart: Sendable, Hashable {
        /// When it ended, from the start of the run.
        let at: Duration
        /// How it ended: `exited with status 1`, `was not ready within 4s`.
        let end: String
    }

    private struct Service: Sendable {
        var stop: StopEnding?
        var restarts: [Restart] = []
    }

    /// Guards what was recorded so far, by service.
    private let services = Locked<[CommandID: Service]>([:])
    /// Guards how the last attempt of each command that was stopped ended.
    private let commands = Locked<[CommandID: StopEnding]>([:])
    /// Guards what the probe of each service that was not ready in time last saw.
    private let notReady = Locked<[CommandID: String]>([:])

    /// Records how the stop of `id` ended.
    func record(_ ending: StopEnding, for id: CommandID) {
        services.withLock { $0[id, default: Service()].stop = ending }
    }

    /// Records an end of `id` that a restart follows.
    func recordRestart(of id: CommandID, at: Duration, end: String) {
        services.withLock { services in
            services[id, default: Service()].restarts.append(Restart(at: at, end: end))
            // A stop recorded before belongs to an incarnation that has ended; the next stop is recorded anew.
            services[id]?.stop = nil
        }
    }

    /// Records how the stop of command `id`'s attempt ended (a timeout, Ctrl-C, fail-fast), or, with `nil`, that a
    /// later attempt was not stopped.
    func recordCommand(_ ending: StopEnding?, for id: CommandID) {
        commands.withLock { $0[id] = ending }
    }

    /// How the stop of command `id`'s last attempt ended, if it was stopped.
    func commandEnding(of id: CommandID) -> StopEnding? {
        commands.withLock { $0[id] }
    }

    /// Records what the probe of service `id` last saw when its time to ready ran out.
    func recordNotReady(_ sentence: String, for id: CommandID) {
        notReady.withLock { $0[id] = sentence }
    }

    /// What the probe of service `id` last saw when its time to ready ran out, if it did.
    func notReadySentence(of id: CommandID) -> String? {
        notReady.withLock { $0[id] }
    }

    /// Whether any command was stopped or any service was not ready in time.
    var hasCommandEndings: Bool {
        commands.withLock { !$0.isEmpty } || notReady.withLock { !$0.isEmpty }
    }

    /// How the stop of service `id` ended, if it was recorded.
    func ending(of id: CommandID) -> StopEnding? {
        services.withLock { $0[id]?.stop }
    }

    /// The ends of `id` that restarts followed, in order.
    func restarts(of id: CommandID) -> [Restart] {
        services.withLock { $0[id]?.restarts ?? [] }
    }

    /// The sentence for a service that ended for good: `service "api" ended by itself after it was ready: exited with
    /// status 1 (restarted 3 times before)`, or, for a restart that was not ready, `service "api" exited with status 1
    /// before it was ready (restarted 3 times before)`.
    func sentence(_ error: ServiceEndedError) -> String {
        let restarts = restarts(of: error.service).count
        let how = error.wasReady ? "ended by itself after it was ready: " : ""
        let before = restarts == 0 ? "" : " (restarted \(restarts) time\(restarts == 1 ? "" : "s") before)"
        return "service \(MessageQuoting.quoted(error.service)) \(how)\(Self.end(of: error))" + before
    }

    /// How a service's incarnation ended, as `startup` says it: what it threw (`exited with status 1`), or, when it
    /// returned, `exited with status 0` (a service's process returns only then).
    static func end(of error: ServiceEndedError) -> String {
        error.underlying.map { "\($0)" } ?? "exited with status 0"
    }
}
