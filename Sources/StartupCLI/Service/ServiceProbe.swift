import StartupKit
import StartupManifest
import StartupSupport

/// Tries a polled probe (`tcp`, `http`, `exec`) until it succeeds or its task is cancelled, one attempt at a time,
/// waiting as `ProbeSchedule` says between attempts; an `after` probe succeeds once its time has passed. `tcp` and `http` also try again at once when the doorbell
/// rings (the service wrote output), though never twice in a row, so a service that logs each probe's request
/// costs at most two attempts per interval. A `log` probe is not polled: the output reader sees its text.
struct ServiceProbe {
    /// The longest a `tcp` or `http` attempt may take (a host that drops packets would otherwise hold it for the
    /// system's connect timeout), unless the interval is longer.
    static let networkAttemptLimit = Duration.seconds(1)

    let readiness: ManifestReadiness
    /// The service's process, whose environment and working directory an `exec` probe runs with.
    let service: ProcessSpec
    /// The grace period of a cancelled `exec` attempt.
    let gracePeriod: Duration
    let doorbell: ProbeDoorbell
    /// Raised once the service's process exists: an `after` probe counts from then, so a service that could not be
    /// started is never ready.
    let spawned: AwaitableFlag
    /// Guards what the latest failed attempt saw, for the message of a probe that times out.
    let lastFailure = Locked<String?>(nil)

    /// Lines of an `exec` probe's output kept for its failure.
    private static let keptExecLines = 3

    /// Returns `true` once the probe succeeded, `false` when cancelled first (or for a `log` probe, at once).
    func run() async -> Bool {
        if case .after(let delay) = readiness.probe {
            guard await spawned.wait() else { return false }
            if delay > .zero { try? await Task.sleep(for: delay) }
            return !Task.isCancelled
        }
        guard let interval = readiness.effectiveInterval else { return false }
        var schedule = ProbeSchedule(interval: interval)
        var rung = false
        while !Task.isCancelled {
            let failure = await attempt(limit: max(Self.networkAttemptLimit, interval))
            guard let failure else { return !Task.isCancelled }
            // An attempt cut short by the stop is kept only when no attempt finished before it.
            lastFailure.withLock { last in
                if !Task.isCancelled || last == nil { last = failure }
            }
            // After an attempt a ring started, the next one waits for the schedule (at most two per interval).
            rung = await doorbell.wait(upTo: schedule.nextDelay(), ringable: !rung)
        }
        return false
    }

    /// One attempt: `nil` when it succeeded, else what it saw (`connection refused`, `answered 404`,
    /// `exit status 1: <its last lines>`).
    private func attempt(limit: Duration) async -> String? {
        await Self.attempt(readiness.probe, service: service, gracePeriod: gracePeriod, limit: limit)
    }

    /// One attempt of `probe` (a `tcp` or `http` one takes at most `limit`; an `exec` one runs until it ends or the
    /// calling task is cancelled, then it is stopped with `gracePeriod` and reaped): `nil` when it succeeded, else
    /// what it saw.
    static func attempt(_ probe: ManifestReadiness.Probe, service: ProcessSpec, gracePeriod: Duration, limit: Duration) async -> String? {
        switch probe {
        case .log, .after:
            return "not polled"
        case .tcp(let host, let port):
            return await NetworkProbe.tryConnect(host: host, port: port, limit: limit)?.description
        case .http(let host, let port, let path):
            return await NetworkProbe.tryGet(host: host, port: port, path: path, limit: limit)?.description
        case .exec(let line):
            let spec = ProcessSpec(
                arguments: CommandLineSplitter.plan(for: line).arguments, environment: service.environment,
                workingDirectory: service.workingDirectory, output: .capture)
            let outcome = await ProcessSpawner.run(spec, terminationGracePeriod: gracePeriod)
            guard !outcome.termination.isSuccess else { return nil }
            let lines = String(decoding: outcome.output, as: UTF8.self).split(whereSeparator: \.isNewline).suffix(keptExecLines)
            let shown = lines.map { MessageQuoting.escaped(String($0)) }.joined(separator: " / ")
            return ShellCommandError(termination: outcome.termination).description + (shown.isEmpty ? "" : ": " + shown)
        }
    }

    /// What the probe last saw, as a sentence for a service that was not ready in time:
    /// `the last http probe of http://127.0.0.1:8080/health answered 404`; `nil` before any attempt failed.
    var lastResultSentence: String? {
        guard let failure = lastFailure.withLock({ $0 }) else { return nil }
        return "the last \(readiness.kind) probe of \(MessageQuoting.quoted(readiness.target)): \(failure)"
    }
}
