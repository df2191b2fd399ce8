import StartupKit
import StartupSupport

/// How `startup run` checks that a ready service is still alive (`"alive"`):
/// `{"http": "http://127.0.0.1:8080/health", "interval": "5s", "failures": 3}`.
///
/// The check runs every ``interval`` once the service is ready; after ``failures`` failed checks
/// in a row the service is stopped and counts as ended with a failure, so its restart policy
/// applies. Each check may take at most its interval, and at most ``longestCheck``.
public struct ManifestLiveness: Sendable, Hashable {
    /// The interval when none is written: 5s.
    public static let defaultInterval = Duration.seconds(5)
    /// The failed checks in a row when none are written: 3.
    public static let defaultFailures = 3
    /// The shortest interval a manifest may give: 100ms. A check is a process or a connection, and a service
    /// checked more often spends its time answering them.
    public static let shortestInterval = Duration.milliseconds(100)
    /// The longest one check may take, whatever the interval: 10s.
    public static let longestCheck = Duration.seconds(10)

    /// What is checked: an `exec`, `tcp` or `http` probe (never `log` or `after`).
    public var probe: ManifestReadiness.Probe
    /// The time between the starts of two checks (`"interval"`).
    public var interval: Duration
    /// How many failed checks in a row stop the service (`"failures"`).
    public var failures: Int

    /// Creates a liveness check.
    public init(probe: ManifestReadiness.Probe, interval: Duration = defaultInterval, failures: Int = defaultFailures) {
        self.probe = probe
        self.interval = interval
        self.failures = failures
    }

    /// The longest one check may take: the interval, at most ``longestCheck``.
    public var checkLimit: Duration { min(interval, Self.longestCheck) }

    /// One line for `startup plan`: `http http://127.0.0.1:8080/health every 5s, 3 failures stop it`.
    public var summary: String {
        let readiness = ManifestReadiness(probe: probe)
        let shown: String
        switch probe {
        case .exec, .log: shown = MessageQuoting.quoted(readiness.target)
        case .tcp, .http, .after: shown = MessageQuoting.escaped(readiness.target)
        }
        let times = failures == 1 ? "1 failure stops it" : "\(failures) failures in a row stop it"
        return "\(readiness.kind) \(shown) every \(DurationText.format(interval)), \(times)"
    }
}
