import StartupKit

/// A manifest command's `stop` line as a lifecycle module: at shutdown it runs the line, after
/// every command that depends on this one has stopped.
struct ShellStopModule: LifecycleModule {
    let id: CommandID
    let spec: ProcessSpec
    let gracePeriod: Duration
    let outputs: CommandOutputs
    let stopTimeout: Duration?

    func stop() async throws {
        let outcome = await ProcessSpawner.run(spec, terminationGracePeriod: gracePeriod)
        outputs.record(String(decoding: outcome.output, as: UTF8.self), for: id)
        if outcome.wasTerminated { throw CancellationError() }
        guard outcome.termination.isSuccess else { throw ShellCommandError(termination: outcome.termination) }
    }
}
