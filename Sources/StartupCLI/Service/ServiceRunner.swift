import StartupKit
import StartupManifest
import StartupSupport

/// Runs one service's process for `startup run`: starts it, streams its output line by line, probes its
/// readiness, and stops it when the calling task is cancelled.
package enum ServiceRunner {
    /// Runs the service until it ends by itself or the calling task is cancelled; returns only when it exited with
    /// status 0 after it was ready.
    ///
    /// The process starts through the process engine in its own process group (stopped with its descendants, as
    /// commands are), with standard output and error on a pipe that a thread of its own reads: every line goes
    /// to `onLine` in order (without its line ending; a last line without one too; lines over 16 KiB cut with a
    /// note). The probe runs meanwhile, one attempt at a time (see `ProbeSchedule` for when `tcp`, `http` and
    /// `exec` try again; `log` looks at each line as it arrives), and `onReady` is called once, as soon as it
    /// succeeds.
    ///
    /// Cancelling the calling task stops the service: with a `stop` line, the line runs (``StopLine``: its output goes
    /// to `onLine` too; SIGTERM if it still runs at `stopTimeout`, SIGKILL after a further `gracePeriod`), and the
    /// service gets no signal while it runs; once it has ended, what is left of the service's process group and what
    /// left it have `gracePeriod` to end, then get SIGTERM, and SIGKILL after a further `gracePeriod`. Without a stop
    /// line, the group and what left it get SIGTERM, and whatever of them is still there after `gracePeriod` gets
    /// SIGKILL, whichever process ends first. A second interrupt (``ProcessEngine/killAtOnce()``) kills the stop line
    /// and the service at once instead, and a stop line that has not started by then never starts. The probe is
    /// cancelled too (an `exec` attempt in flight is stopped and reaped, a socket closed). The call returns once every
    /// process it started has been reaped. A service that ends by itself
    /// is stopped as it ends: what it left running (the rest of its process group, what left the group) gets SIGTERM,
    /// and SIGKILL after the grace period, before the call returns, so nothing of it blocks its restart (its port)
    /// or outlives `startup`.
    ///
    /// - Parameters:
    ///   - spec: The service's process (its `output` is replaced by the pipe).
    ///   - readiness: How readiness is probed.
    ///   - alive: How the service is checked once ready (`LivenessCheck`); after its failures in a row it is stopped
    ///     as on cancellation, and the call throws `ServiceRunnerError` `.notAlive`.
    ///   - stop: The service's `stop` line, if it has one (its `output` is replaced by the pipe).
    ///   - gracePeriod: How long a stop may take before SIGKILL (a stop line's SIGTERM to SIGKILL; after the stop line,
    ///     the time the service's processes have to end before SIGTERM, and from it to SIGKILL).
    ///   - stopTimeout: How long the stop line may run before it gets SIGTERM.
    ///   - onLine: Called with each line of output, in order, on the reading thread.
    ///   - onReady: Called once, when the probe first succeeds.
    ///   - onStopped: Called once the service has been stopped by the caller, with how its processes ended.
    ///   - onNotReady: Called when the service is stopped before it was ready (its ready timeout), with
    ///     what its probe last saw.
    ///   - onOutput: Called with each chunk of output (the service's and its stop line's) as it came, byte for byte,
    ///     on the reading thread, after its lines.
    ///   - onSpawned: Called with the service's pid once its process exists.
    ///   - onStopping: Called once when the caller's cancellation begins the stop.
    ///   - onCheck: Called with what each liveness check saw, as `alive` or `not alive: ...`.
    /// - Throws: `CancellationError` once stopped as asked; `ServiceRunnerError` when the service ended by itself
    ///   (`exited with status 3 before it was ready`, `exited with status 1`), could not be started, or its stop
    ///   line failed; `StopLineTimedOut` when its stop line was still running at `stopTimeout`; `StopCutShort` when a
    ///   second interrupt killed its stop line or kept it from starting, or killed the service while it was stopping.
    package static func run(
        _ spec: ProcessSpec, readiness: ManifestReadiness, alive: ManifestLiveness? = nil, stop: ProcessSpec?, gracePeriod: Duration,
        stopTimeout: Duration = ManifestCommand.defaultStopTimeout,
        onLine: @escaping @Sendable (String) -> Void,
        onReady: @escaping @Sendable () -> Void,
        onStopped: @escaping @Sendable (ProcessEndings.StopEnding) -> Void = { _ in },
        onNotReady: @escaping @Sendable (String) -> Void = { _ in },
        onOutput: @escaping @Sendable (ArraySlice<UInt8>) -> Void = { _ in },
        onSpawned: @escaping @Sendable (Int32) -> Void = { _ in },
        onStopping: @escaping @Sendable () -> Void = {},
        onCheck: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws {
        try Task.checkCancellation()
        try await checkAddressIsFree(readiness.probe)
        let latch = ReadyLatch(onReady)
        let doorbell = ProbeDoorbell()
        let logText: String?
        let ringsOnOutput: Bool
        switch readiness.probe {
        case .log(let text): (logText, ringsOnOutput) = (text, false)
        case .tcp, .http: (logText, ringsOnOutput) = (nil, true)
        case .exec, .after: (logText, ringsOnOutput) = (nil, false)
        }
        let reader = try ServiceOutputReader(
            logText: logText, onLine: onLine, onMatch: { latch.signal() },
            onOutput: { bytes in
                onOutput(bytes)
                if ringsOnOutput { doorbell.ring() }
            })
        reader.start()
        let serviceSpec = writingTo(reader.writeEnd, spec)
        let stopSpec = stop.map { writingTo(reader.writeEnd, $0) }
        // Not a child task: the caller's cancellation must not stop the service itself. With a stop line, the service is
        // left to it (no SIGTERM) until it has ended, then has its grace period; see `stopService`.
        let spawned = AwaitableFlag()
        let lineEnding = stopSpec.map { _ in StopLineEnding() }
        let service = Task {
            await ProcessSpawner.run(
                serviceSpec, terminationGracePeriod: gracePeriod, signalsWhenStopped: stop == nil, stopsTreeOnExit: true,
                stopLineEnding: lineEnding,
                onSpawned: { pid in
                    spawned.raise()
                    onSpawned(pid)
                })
        }
        let probe = ServiceProbe(readiness: readiness, service: spec, gracePeriod: gracePeriod, doorbell: doorbell, spawned: spawned)
        /// Guards whether the service's one stop has begun (the caller's cancellation or a failed liveness check),
        /// or is no longer needed (the service has been reaped).
        let stopBegun = Locked(false)
        let notice = ProcessEngine.shared.killAtOnceNotice
        let stopOnce: @Sendable () async -> StopLineEnd? = {
            guard
                stopBegun.withLock({ begun in
                    defer { begun = true }
                    return !begun
                })
            else { return nil }
            // Not a child task, so the stop line can start although the asking task is cancelled.
            let line = stopSpec.map { StopLine(spec: $0, stopTimeout: stopTimeout, gracePeriod: gracePeriod) }
            return await Task { await stopService(service, line: line, lineEnding: lineEnding, notice: notice) }.value
        }
        /// Guards what the last liveness check saw, once `failures` checks in a row have failed.
        let notAlive = Locked<String?>(nil)
        let (outcome, stop) = await withTaskGroup(of: StopLineEnd?.self) { group in
            group.addTask {
                if await probe.run() { latch.signal() }
                return nil
            }
            group.addTask {
                await BoundedWait.untilCancelled()
                if !stopBegun.withLock({ $0 }) { onStopping() }
                return await stopOnce()
            }
            if let alive {
                group.addTask {
                    guard await latch.untilReady() else { return nil }
                    let kind = ManifestReadiness(probe: alive.probe).kind
                    let check = LivenessCheck(
                        liveness: alive, service: spec,
                        onResult: { failure in onCheck(failure.map { "\(kind) check failed: \($0)" } ?? "\(kind) check passed") })
                    guard let failure = await check.run() else { return nil }
                    notAlive.withLock { $0 = check.failureSentence(lastResult: failure) }
                    return await stopOnce()
                }
            }
            let outcome = await service.value
            stopBegun.withLock { $0 = true }
            group.cancelAll()
            var stop: StopLineEnd?
            for await result in group where result != nil { stop = result }
            return (outcome, stop)
        }
        await reader.finish()
        let ending = ProcessEndings.StopEnding(outcome, hasStopLine: stop != nil)
        // The caller's stop (a shutdown, a timeout) is reported as such; a liveness stop ends the incarnation instead.
        if Task.isCancelled, let ending { onStopped(ending) }
        if Task.isCancelled, !latch.isReady, let sentence = probe.lastResultSentence { onNotReady(sentence) }
        if let stop,
            let problem = stop.end.problem(
                stopTimeout: stopTimeout, noticeWasSent: stop.noticeWasSent, failed: { ServiceRunnerError(.stopFailed($0)) })
        {
            throw problem
        }
        if Task.isCancelled {
            if let cutShort = StopCutShort(service: outcome) { throw cutShort }
            throw CancellationError()
        }
        if let notAlive = notAlive.withLock({ $0 }) {
            throw ServiceRunnerError(
                .notAlive(notAlive + (ending.map { ", so it was stopped: \($0.description)" } ?? ", so it was stopped")))
        }
        // A clean exit after readiness is the service's own end, not a failure: a restart policy "on failure" leaves it.
        if latch.isReady, outcome.termination == .exited(0) { return }
        throw ServiceRunnerError(.exited(outcome.termination, afterReady: latch.isReady))
    }

    /// Refuses to start a service whose `tcp` or `http` probe's address already accepts connections: the probe
    /// would see another process and report the service ready without its having started. Neither retried nor
    /// restarted (``AddressInUseError`` is a `NonRetryableError`).
    private static func checkAddressIsFree(_ probe: ManifestReadiness.Probe) async throws {
        let address: (host: String, port: Int)
        switch probe {
        case .tcp(let host, let port), .http(let host, let port, _): address = (host, port)
        case .exec, .log, .after: return
        }
        if await NetworkProbe.connects(host: address.host, port: address.port, limit: ServiceProbe.networkAttemptLimit) {
            throw AddressInUseError(host: address.host, port: address.port, holder: PortHolder.find(port: address.port)?.description)
        }
    }

    /// `spec` with its output going to `descriptor`.
    private static func writingTo(_ descriptor: Int32, _ spec: ProcessSpec) -> ProcessSpec {
        var spec = spec
        spec.output = .descriptor(descriptor)
        return spec
    }

    /// Stops the service: with a stop line, the service is marked as stopping first, with no signal, then the line
    /// runs (``StopLine``: SIGTERM at its `stopTimeout`, SIGKILL after the grace period; not at all after a second
    /// interrupt), and once it has ended the engine is told (`lineEnding`): what is left of the service's group and
    /// tree has the grace period, then gets SIGTERM, and SIGKILL after a further grace period. Without a stop line,
    /// SIGTERM, and SIGKILL to whatever of its tree is still there after the grace period (the engine's stop). A second
    /// interrupt kills the stop line and the service at once. Returns how the stop line ended.
    private static func stopService(
        _ service: Task<ProcessOutcome, Never>, line: StopLine?, lineEnding: StopLineEnding?, notice: KillAtOnceNotice
    ) async -> StopLineEnd? {
        service.cancel()
        guard let line else { return nil }
        let end = await line.run(notice: notice)
        let noticeWasSent = notice.isSent
        lineEnding?.lineEnded()
        _ = await service.value
        return StopLineEnd(end: end, noticeWasSent: noticeWasSent)
    }

    /// How a service's stop line ended, and whether a second interrupt had come by then.
    private struct StopLineEnd: Sendable {
        let end: StopLine.End
        let noticeWasSent: Bool
    }
}
