import StartupKit

/// A manifest command's `stop` line as a lifecycle module: at shutdown it runs the line, after
/// every command that depends on this one has stopped. A second interrupt kills the line at once
/// (or keeps it from starting): the stop throws ``StopCutShort``.
struct ShellStopModule: LifecycleModule {
    let id: CommandID
    let spec: ProcessSpec
    let gracePeriod: Duration
    let outputs: CommandOutputs
    let stopTimeout: Duration?

    func stop() async throws {
        let line = Task { [spec, gracePeriod] in await ProcessSpawner.run(spec, terminationGracePeriod: gracePeriod) }
        let notice = ProcessEngine.shared.killAtOnceNotice
        let outcome = await withTaskCancellationHandler {
            await notice.whileWaiting(for: { await line.value }, onNotice: { line.cancel() })
        } onCancel: {
            line.cancel()
        }
        let noticeWasSent = notice.isSent
        outputs.record(String(decoding: outcome.output, as: UTF8.self), for: id)
        // Stopped for the shutdown's timeout (which reports it), or by a second interrupt.
        if outcome.wasTerminated && Task.isCancelled { throw CancellationError() }
        if let cutShort = StopCutShort(stopLine: outcome, noticeWasSent: noticeWasSent) { throw cutShort }
        guard outcome.termination.isSuccess else {
            throw ShellCommandError(termination: outcome.termination, isStopLine: true)
        }
    }
}
