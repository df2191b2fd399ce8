#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs child processes with `posix_spawn` on the process engine's thread and waits for them without polling or
/// blocking the cooperative pool.
package enum ProcessSpawner {
    /// Runs `spec` to completion. Cancelling the calling task sends SIGTERM to the child's process group and to
    /// what it started outside the group (see `ProcessTree`), SIGKILL after `terminationGracePeriod`, and SIGKILL
    /// to whatever is left of them once the child exits; the outcome is returned only after the child has been
    /// reaped. Never throws: a spawn failure is a `.failedToStart` outcome.
    package static func run(
        _ spec: ProcessSpec,
        terminationGracePeriod: Duration = .seconds(2)
    ) async -> ProcessOutcome {
        await run(spec, terminationGracePeriod: terminationGracePeriod, directoryStrategy: .automatic)
    }

    /// `run(_:terminationGracePeriod:)` with explicit platform strategies (tests force the fallbacks).
    static func run(
        _ spec: ProcessSpec,
        terminationGracePeriod: Duration,
        directoryStrategy: ChildLauncher.DirectoryStrategy,
        exitStrategy: ExitWatcher.Strategy = .automatic
    ) async -> ProcessOutcome {
        let engine = ProcessEngine.shared
        guard spec.output == .capture else {
            let exit = await engine.run(
                spec, captureDescriptor: nil, gracePeriod: terminationGracePeriod,
                directoryStrategy: directoryStrategy, exitStrategy: exitStrategy)
            return ProcessOutcome(termination: exit.termination, cancellation: exit.cancellation)
        }
        let capture: CaptureFile
        do {
            capture = try CaptureFile.create()
        } catch {
            return ProcessOutcome(termination: error.termination)
        }
        let exit = await engine.run(
            spec, captureDescriptor: capture.descriptor, gracePeriod: terminationGracePeriod,
            directoryStrategy: directoryStrategy, exitStrategy: exitStrategy)
        let tail = capture.readTail()
        return ProcessOutcome(
            termination: exit.termination, output: tail.bytes, outputTruncated: tail.truncated,
            cancellation: exit.cancellation)
    }
}
