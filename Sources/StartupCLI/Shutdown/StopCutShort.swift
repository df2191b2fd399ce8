import StartupKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `stop` line that a second interrupt ended: killed while it ran, or never started. Not a failed stop (the user
/// asked for it, and the exit status stays 130), but not a clean one either: what the line was to undo may be left.
struct StopCutShort: Error, Sendable, CustomStringConvertible {
    /// Whether the line had started.
    let started: Bool

    /// The cut-short error for `outcome`, a stop line's, if the notice was sent and the line was stopped or never
    /// started because of it; `nil` if the line ended by itself.
    init?(_ outcome: ProcessOutcome, notice: KillAtOnceNotice) {
        guard notice.isSent else { return nil }
        if case .failedToStart(ECANCELED, _) = outcome.termination {
            started = false
        } else if outcome.wasTerminated {
            started = true
        } else {
            return nil
        }
    }

    /// `stop line killed: interrupted again`, `stop line not run: interrupted again`.
    var description: String {
        started ? "stop line killed: interrupted again" : "stop line not run: interrupted again"
    }
}

extension ShutdownReport {
    /// The stops that failed, threw or timed out, not counting those a second interrupt cut short.
    var failuresNotCutShort: [ModuleCallReport] {
        failures.filter { !$0.wasCutShort }
    }
}

extension ModuleCallReport {
    /// Whether a second interrupt cut this stop short (see ``StopCutShort``).
    var wasCutShort: Bool {
        if case .failed(let error) = status { return error is StopCutShort }
        return false
    }
}
