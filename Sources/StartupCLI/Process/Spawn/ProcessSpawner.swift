#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs child processes (`ChildSpawn`) on the process engine's thread and waits for them without polling or
/// blocking the cooperative pool.
package enum ProcessSpawner {
    /// Runs `spec` to completion. Cancelling the calling task sends SIGTERM to the child's process group and to
    /// what it started outside the group (see `ProcessTree`), SIGKILL after `terminationGracePeriod`, and SIGKILL
    /// to whatever is left of them once the child exits; the outcome is returned only after the child has been
    /// reaped. Never throws: a spawn failure is a `.failedToStart` outcome.
    ///
    /// With `signalsWhenStopped` false (a service stopped by its stop line), cancelling sends no SIGTERM: the child is
    /// left to its stop line, and its group and tree get SIGKILL when it exits; once `stopLineEnding` says the line
    /// has ended, what is left has the grace period, then SIGTERM, and SIGKILL after a further grace period.
    /// `onSpawned` is called (on the engine's thread) once the child exists, never when it could not be started.
    ///
    /// With `stopsTreeOnExit` (a service), a child that exits by itself is stopped as it exits, as if the task had
    /// been cancelled then: what it left (the rest of its group, what left the group) gets SIGTERM, and SIGKILL when the
    /// grace period ends, and the outcome (the child's own exit) is returned once they are gone. Without it, what a
    /// child that exits by itself leaves keeps running, as with make.
    package static func run(
        _ spec: ProcessSpec,
        terminationGracePeriod: Duration = .seconds(2),
        signalsWhenStopped: Bool = true,
        stopsTreeOnExit: Bool = false,
        stopLineEnding: StopLineEnding? = nil,
        onSpawned: (@Sendable (pid_t) -> Void)? = nil
    ) async -> ProcessOutcome {
        await run(
            spec, terminationGracePeriod: terminationGracePeriod, signalsWhenStopped: signalsWhenStopped,
            directoryStrategy: .automatic, stopsTreeOnExit: stopsTreeOnExit, stopLineEnding: stopLineEnding,
            onSpawned: onSpawned)
    }

    /// `run(_:terminationGracePeriod:signalsWhenStopped:stopLineEnding:onSpawned:)` with explicit platform strategies
    /// (tests force the fallbacks).
    static func run(
        _ spec: ProcessSpec,
        terminationGracePeriod: Duration,
        signalsWhenStopped: Bool = true,
        directoryStrategy: ChildLauncher.DirectoryStrategy,
        exitStrategy: ExitWatcher.Strategy = .automatic,
        stopsTreeOnExit: Bool = false,
        stopLineEnding: StopLineEnding? = nil,
        onSpawned: (@Sendable (pid_t) -> Void)? = nil
    ) async -> ProcessOutcome {
        let engine = ProcessEngine.shared
        guard spec.output == .capture else {
            let exit = await engine.run(
                spec, captureDescriptor: nil, gracePeriod: terminationGracePeriod, signalsWhenStopped: signalsWhenStopped,
                directoryStrategy: directoryStrategy, exitStrategy: exitStrategy, stopLineEnding: stopLineEnding,
                onSpawned: onSpawned, stopsTreeOnExit: stopsTreeOnExit)
            return ProcessOutcome(termination: exit.termination, cancellation: exit.cancellation, kill: exit.kill)
        }
        let capture: CaptureFile
        do {
            capture = try CaptureFile.create()
        } catch {
            return ProcessOutcome(termination: error.termination)
        }
        let exit = await engine.run(
            spec, captureDescriptor: capture.descriptor, gracePeriod: terminationGracePeriod,
            signalsWhenStopped: signalsWhenStopped, directoryStrategy: directoryStrategy, exitStrategy: exitStrategy,
            stopLineEnding: stopLineEnding, onSpawned: onSpawned, stopsTreeOnExit: stopsTreeOnExit)
        let tail = capture.readTail()
        return ProcessOutcome(
            termination: exit.termination, output: tail.bytes, outputTruncated: tail.truncated,
            cancellation: exit.cancellation, kill: exit.kill)
    }
}
