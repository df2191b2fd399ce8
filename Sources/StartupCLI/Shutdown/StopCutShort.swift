import StartupKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A stop that a second interrupt ended: a `stop` line killed while it ran or never started, or a service
/// killed at once (SIGKILL) while the run stopped it. Not a failed stop (the user asked for it, and the exit
/// status stays 130), but not a clean one either: what the line was to undo, or the service's own clean-up, may
/// be left.
struct StopCutShort: Error, Sendable, CustomStringConvertible {
    /// What the second interrupt cut short.
    enum Kind: Sendable {
        /// The stop line, killed while it ran.
        case stopLineKilled
        /// The stop line, which never started.
        case stopLineNotRun
        /// The service itself, killed at once: after its SIGTERM or its stop line, or as its stop began.
        case serviceKilled
    }

    /// What was cut short.
    let kind: Kind

    /// A stop line that never started: the second interrupt had come first.
    static let stopLineNotRun = StopCutShort(kind: .stopLineNotRun)

    /// The error for `kind`.
    private init(kind: Kind) {
        self.kind = kind
    }

    /// The cut-short error for `outcome`, a stop line's: killed by the second interrupt (as the engine recorded), or
    /// never started because the notice had been sent by the time the line ended (`noticeWasSent`, read then);
    /// `nil` if the line ended by itself or was killed when its time was up.
    init?(stopLine outcome: ProcessOutcome, noticeWasSent: Bool) {
        if case .failedToStart(ECANCELED, _) = outcome.termination {
            guard noticeWasSent else { return nil }
            kind = .stopLineNotRun
        } else if outcome.wasKilledAtSecondInterrupt {
            kind = .stopLineKilled
        } else {
            return nil
        }
    }

    /// The cut-short error for `outcome`, a stopped service's, if the second interrupt is what killed some of its
    /// processes (the engine records why it sent SIGKILL, as it sends it); `nil` if it ended by itself, on its stop's
    /// SIGTERM or stop line, or was killed when its grace period ran out, even if a second interrupt came later.
    init?(service outcome: ProcessOutcome) {
        guard outcome.wasKilledAtSecondInterrupt else { return nil }
        kind = .serviceKilled
    }

    /// `stop line killed: interrupted again`, `stop line not run: interrupted again`,
    /// `killed: interrupted again`.
    var description: String {
        switch kind {
        case .stopLineKilled: "stop line killed: interrupted again"
        case .stopLineNotRun: "stop line not run: interrupted again"
        case .serviceKilled: "killed: interrupted again"
        }
    }
}

extension ProcessOutcome {
    /// Whether the second interrupt is what killed some of its processes.
    fileprivate var wasKilledAtSecondInterrupt: Bool {
        guard let kill else { return false }
        return kill.cause == .secondInterrupt && kill.processes > 0
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
