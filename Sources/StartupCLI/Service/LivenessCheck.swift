import StartupKit
import StartupManifest

/// Checks that a ready service is still alive (`"alive"`): one check every interval (start to start), each bounded
/// by ``ManifestLiveness/checkLimit`` (a check that takes longer has failed, and its `exec` process is killed at once
/// and reaped, so a check never takes a grace period longer), until `failures` checks in a row have failed or the
/// calling task is cancelled. It runs beside the service, never on the scheduler's path.
struct LivenessCheck {
    let liveness: ManifestLiveness
    /// The service's process, whose environment and working directory an `exec` check runs with.
    let service: ProcessSpec
    /// Told what each check saw: `nil` when it passed.
    var onResult: @Sendable (String?) -> Void = { _ in }

    /// Checks until `failures` checks in a row failed, and returns what the last one saw; `nil` once cancelled.
    func run() async -> String? {
        let clock = ContinuousClock()
        var failedInARow = 0
        var next = clock.now.advanced(by: liveness.interval)
        while true {
            guard (try? await clock.sleep(until: next)) != nil else { return nil }
            next = next.advanced(by: liveness.interval)
            let failure = await check()
            guard !Task.isCancelled else { return nil }
            onResult(failure)
            guard let failure else {
                failedInARow = 0
                continue
            }
            failedInARow += 1
            if failedInARow >= liveness.failures { return failure }
            // A check that overran the interval is not followed by a burst of catch-up checks.
            if next < clock.now { next = clock.now.advanced(by: liveness.interval) }
        }
    }

    /// One check, bounded by the check limit: `nil` when it succeeded, else what it saw.
    private func check() async -> String? {
        let limit = liveness.checkLimit
        return await withTaskGroup(of: CheckResult.self) { group in
            group.addTask { [liveness, service] in
                .ended(await ServiceProbe.attempt(liveness.probe, service: service, gracePeriod: .zero, limit: limit))
            }
            group.addTask {
                guard (try? await Task.sleep(for: limit)) != nil else { return .cancelled }
                return .ended("took longer than \(DurationText.format(limit))")
            }
            var result: String?
            if case .ended(let failure)? = await group.next() { result = failure }
            group.cancelAll()
            return result
        }
    }

    /// How one of a check's two racing tasks ended.
    private enum CheckResult: Sendable {
        /// The check ended (`nil`: it succeeded) or ran out of time.
        case ended(String?)
        /// The timer was cancelled.
        case cancelled
    }

    /// The sentence for a service that failed its checks: `failed 3 liveness checks in a row (the last http check of
    /// "http://127.0.0.1:8080/health": answered 500)`.
    func failureSentence(lastResult: String) -> String {
        let kind = ManifestReadiness(probe: liveness.probe).kind
        let checks = liveness.failures == 1 ? "its liveness check" : "\(liveness.failures) liveness checks in a row"
        return "failed \(checks) (the last \(kind) check: \(lastResult))"
    }
}
