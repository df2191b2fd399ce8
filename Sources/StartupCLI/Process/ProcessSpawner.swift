#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs child processes with `posix_spawn` and waits for them without polling or blocking the cooperative pool.
package enum ProcessSpawner {
    /// Runs `spec` to completion. Cancelling the calling task sends SIGTERM to the child's process group, SIGKILL
    /// after `terminationGracePeriod`, and SIGKILL to any group members left once the child exits; the outcome is
    /// returned only after the child has been reaped. Never throws: a spawn failure is a `.failedToStart` outcome.
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
        if Task.isCancelled {
            let program = spec.arguments.first ?? ""
            return ProcessOutcome(termination: .failedToStart(
                errno: ECANCELED, message: "cannot run \"\(program)\": cancelled before it started"))
        }
        guard spec.output == .capture else {
            let exit = await launchAndWait(
                spec, captureDescriptor: nil, gracePeriod: terminationGracePeriod, directoryStrategy: directoryStrategy,
                exitStrategy: exitStrategy)
            return ProcessOutcome(termination: exit.termination, cancellation: exit.cancellation)
        }
        let capture: CaptureFile
        do {
            capture = try CaptureFile.create()
        } catch {
            return ProcessOutcome(termination: error.termination)
        }
        let exit = await launchAndWait(
            spec, captureDescriptor: capture.descriptor, gracePeriod: terminationGracePeriod,
            directoryStrategy: directoryStrategy, exitStrategy: exitStrategy)
        let tail = capture.readTail()
        return ProcessOutcome(
            termination: exit.termination, output: tail.bytes, outputTruncated: tail.truncated,
            cancellation: exit.cancellation)
    }

    /// Spawns the child and waits for it, mapping a spawn failure to a `ChildExit`.
    private static func launchAndWait(
        _ spec: ProcessSpec,
        captureDescriptor: Int32?,
        gracePeriod: Duration,
        directoryStrategy: ChildLauncher.DirectoryStrategy,
        exitStrategy: ExitWatcher.Strategy
    ) async -> ChildExit {
        switch ChildLauncher.launch(spec, captureDescriptor: captureDescriptor, directoryStrategy: directoryStrategy) {
        case .failure(let failure):
            return ChildExit(termination: failure.termination, cancellation: nil)
        case .success(let pid):
            return await ChildProcess(pid: pid).waitForExit(gracePeriod: gracePeriod, strategy: exitStrategy)
        }
    }
}
