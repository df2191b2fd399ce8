import StartupKit
import StartupSupport

/// A command's `stop` line as the shutdown runs it: started only if no second interrupt has come, bounded by the
/// command's `stopTimeout` (SIGTERM then, and SIGKILL after the grace period), and killed at once by a second
/// interrupt. A plain command's stop line (`ShellStopModule`) and a service's (`ServiceRunner`) both run here, so
/// both kinds keep the same bounds.
struct StopLine: Sendable {
    /// What the line runs.
    let spec: ProcessSpec
    /// How long the line may run before it gets SIGTERM (the command's `stopTimeout`).
    let stopTimeout: Duration
    /// From the SIGTERM at `stopTimeout` to SIGKILL.
    let gracePeriod: Duration

    /// What a stop's backstop bound allows beyond the line's own bounds, to reap it on a loaded machine: the
    /// shutdown's timeout of a stop that runs a line never comes before the line's own.
    static let reapAllowance = Duration.seconds(5)

    /// How a run of the line ended.
    enum End: Sendable {
        /// Never started: a second interrupt had come first.
        case notRun
        /// Started and ended as `outcome` says; `reachedStopTimeout`: it was still running at its `stopTimeout`, and
        /// was stopped then.
        case ran(ProcessOutcome, reachedStopTimeout: Bool)
    }

    /// Runs the line unless `notice` was sent, and returns once it has been reaped: at most `stopTimeout` and
    /// `gracePeriod` after it began, or at once after `notice`. Cancelling the calling task stops the line (SIGTERM,
    /// SIGKILL after `gracePeriod`) and waits for it too.
    ///
    /// The line starts only after its wait is registered with `notice`, in one step with the check that the notice
    /// has not been sent: a second interrupt handled before that keeps it from starting (the engine never hears of
    /// it), and one handled after it cancels its task, which the engine checks under its own lock before it spawns.
    func run(notice: KillAtOnceNotice = ProcessEngine.shared.killAtOnceNotice) async -> End {
        let gate = StartGate()
        return await withTaskCancellationHandler {
            await notice.whileWaiting(
                for: {
                    let line = gate.open { [spec, gracePeriod] in
                        Task { await ProcessSpawner.run(spec, terminationGracePeriod: gracePeriod) }
                    }
                    guard let line else { return .notRun }
                    let inTime = await BoundedWait.finishes(line, within: stopTimeout, unlessSent: notice)
                    // Read before the cancellation: a notice sent after the time was up does not make it the cause.
                    let reachedStopTimeout = !inTime && !notice.isSent
                    if !inTime { line.cancel() }
                    return .ran(await line.value, reachedStopTimeout: reachedStopTimeout)
                }, onNotice: { gate.close() })
        } onCancel: {
            gate.close()
        }
    }

    /// Whether the line may still start, and its task once it has.
    private final class StartGate: Sendable {
        /// Guards whether the gate was closed and the line's task.
        private let state = Locked<(closed: Bool, line: Task<ProcessOutcome, Never>?)>((false, nil))

        /// Starts the line with `start` unless the gate was closed; `nil` if it was. The task is created under the
        /// lock (creating one only queues it), so a line is either started before the gate closes or never.
        func open(_ start: () -> Task<ProcessOutcome, Never>) -> Task<ProcessOutcome, Never>? {
            state.withLock { state in
                guard !state.closed else { return nil }
                let line = start()
                state.line = line
                return line
            }
        }

        /// Closes the gate: a line not started yet never starts, one started is cancelled (stopped).
        func close() {
            state.withLock { state in
                state.closed = true
                return state.line
            }?.cancel()
        }
    }
}

/// A `stop` line still running at its `stopTimeout`, stopped then (SIGTERM, SIGKILL after the grace period): a failed
/// stop, as the cleanup it was doing may be left half done.
struct StopLineTimedOut: Error, Sendable, CustomStringConvertible {
    /// The line's `stopTimeout`.
    let stopTimeout: Duration
    /// Whether it was still there when the grace period after its SIGTERM ended, and was killed.
    let wasKilled: Bool

    /// `stop line stopped at its 10s stopTimeout`, with `, killed after the grace period` when it came to that.
    var description: String {
        "stop line stopped at its \(DurationText.format(stopTimeout)) stopTimeout" + (wasKilled ? ", killed after the grace period" : "")
    }
}

extension StopLine.End {
    /// Why the stop failed or was cut short, `nil` if the line ran and succeeded: ``StopCutShort`` when a second
    /// interrupt kept it from starting or killed it, ``StopLineTimedOut`` when it was stopped at its `stopTimeout`, and
    /// `failed` (the line's own failure, as its caller words it) when it exited otherwise than with status 0.
    /// `noticeWasSent`: whether the second interrupt had come by the time the line ended.
    func problem(stopTimeout: Duration, noticeWasSent: Bool, failed: (Termination) -> any Error) -> (any Error)? {
        switch self {
        case .notRun:
            return StopCutShort.stopLineNotRun
        case .ran(let outcome, let reachedStopTimeout):
            if let cutShort = StopCutShort(stopLine: outcome, noticeWasSent: noticeWasSent) {
                return cutShort
            }
            if reachedStopTimeout {
                let killed = outcome.kill.map { $0.cause == .gracePeriodEnded && $0.processes > 0 } ?? false
                return StopLineTimedOut(stopTimeout: stopTimeout, wasKilled: killed)
            }
            return outcome.termination.isSuccess ? nil : failed(outcome.termination)
        }
    }
}
