import StartupManifest

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

    /// Returns `true` once the probe succeeded, `false` when cancelled first (or for a `log` probe, at once).
    func run() async -> Bool {
        if case .after(let delay) = readiness.probe {
            if delay > .zero { try? await Task.sleep(for: delay) }
            return !Task.isCancelled
        }
        guard let interval = readiness.effectiveInterval else { return false }
        var schedule = ProbeSchedule(interval: interval)
        var rung = false
        while !Task.isCancelled {
            if await attempt(limit: max(Self.networkAttemptLimit, interval)) { return !Task.isCancelled }
            // After an attempt a ring started, the next one waits for the schedule (at most two per interval).
            rung = await doorbell.wait(upTo: schedule.nextDelay(), ringable: !rung)
        }
        return false
    }

    /// One attempt.
    private func attempt(limit: Duration) async -> Bool {
        switch readiness.probe {
        case .log, .after:
            return false
        case .tcp(let host, let port):
            return await NetworkProbe.connects(host: host, port: port, limit: limit)
        case .http(let host, let port, let path):
            return await NetworkProbe.answers(host: host, port: port, path: path, limit: limit)
        case .exec(let line):
            let spec = ProcessSpec(
                arguments: CommandLineSplitter.plan(for: line).arguments, environment: service.environment,
                workingDirectory: service.workingDirectory, output: .discard)
            return await ProcessSpawner.run(spec, terminationGracePeriod: gracePeriod).termination.isSuccess
        }
    }
}
