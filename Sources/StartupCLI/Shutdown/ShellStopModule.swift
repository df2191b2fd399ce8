import StartupKit

/// A manifest command's `stop` line as a module the run's shutdown stops: at shutdown it runs the line (``StopLine``), after every
/// command that depends on this one has stopped. The line has its command's `stopTimeout` (SIGTERM then, SIGKILL
/// after the grace period); a second interrupt kills it at once, or keeps it from starting: the stop throws
/// ``StopCutShort``.
struct ShellStopModule: StoppableModule {
    let id: CommandID
    let line: StopLine
    let outputs: CommandOutputs

    /// The shutdown's own bound of this stop, a backstop that never comes first: the line's `stopTimeout`, its grace
    /// period after the SIGTERM, and time to reap it on a loaded machine.
    var stopTimeout: Duration? {
        line.stopTimeout + line.gracePeriod + StopLine.reapAllowance
    }

    func stop() async throws {
        let notice = ProcessEngine.shared.killAtOnceNotice
        let end = await line.run(notice: notice)
        let noticeWasSent = notice.isSent
        guard case .ran(let outcome, _) = end else { throw StopCutShort.stopLineNotRun }
        outputs.record(String(decoding: outcome.output, as: UTF8.self), for: id)
        // Stopped for the shutdown's cancellation, or by a second interrupt.
        if outcome.wasTerminated && Task.isCancelled { throw CancellationError() }
        if let problem = end.problem(
            stopTimeout: line.stopTimeout, noticeWasSent: noticeWasSent,
            failed: { ShellCommandError(termination: $0, isStopLine: true) })
        {
            throw problem
        }
    }
}
