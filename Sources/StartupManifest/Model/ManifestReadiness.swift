import StartupKit
import StartupSupport

/// How `startup run` learns that a service (a command with `"ready"`) is ready, so that its
/// dependents may start: `{"tcp": "127.0.0.1:5433", "interval": "10ms", "timeout": "30s"}`.
public struct ManifestReadiness: Sendable, Hashable {
    /// What is tried until it succeeds.
    ///
    /// Probes are added as the manifest grows (a minor version may add one): a `switch` over a
    /// probe should have a `default`, so that code written against this version keeps compiling.
    ///
    /// ```swift
    /// func address(of probe: ManifestReadiness.Probe) -> String? {
    ///     switch probe {
    ///     case .tcp(let host, let port), .http(let host, let port, _): "\(host):\(port)"
    ///     default: nil
    ///     }
    /// }
    /// ```
    public enum Probe: Sendable, Hashable {
        /// A shell line, ready when it exits 0 (`"exec"`).
        case exec(String)
        /// Ready when a TCP connection to `host:port` is accepted (`"tcp"`).
        case tcp(host: String, port: Int)
        /// Ready when `GET path` over plain HTTP/1.1 answers 2xx or 3xx (`"http"`).
        case http(host: String, port: Int, path: String)
        /// Ready when the text appears within one line of the service's output (`"log"`).
        case log(String)
        /// Ready once the service has run this long without ending (`"after"`; zero: ready at
        /// start), for a worker that has nothing to probe.
        case after(Duration)

        /// Whether the probe is tried again and again (`tcp`, `http`, `exec`), which an
        /// `"interval"` paces; `log` looks at each line as it comes, `after` waits once.
        public var isPolled: Bool {
            switch self {
            case .exec, .tcp, .http: true
            case .log, .after: false
            }
        }
    }

    /// The probe's default interval for `tcp` and `http`.
    public static let networkInterval = Duration.milliseconds(10)
    /// The probe's default interval for `exec`.
    public static let execInterval = Duration.milliseconds(100)
    /// The ready timeout when neither the probe, the command nor the defaults set one.
    public static let defaultTimeout = Duration.seconds(30)

    /// What is tried.
    public var probe: Probe
    /// How often the probe is retried (`"interval"`); `nil` for the probe's default. Never set for `log`.
    public var interval: Duration?
    /// The longest the service may take to be ready (`"timeout"`); `nil` to use the command's `timeout`.
    public var timeout: Duration?

    /// Creates a readiness check.
    public init(probe: Probe, interval: Duration? = nil, timeout: Duration? = nil) {
        self.probe = probe
        self.interval = interval
        self.timeout = timeout
    }

    /// The longest wait between two attempts: `interval`, else 10ms for `tcp` and `http` and 100ms
    /// for `exec`; `nil` for `log` and `after`, which are never polled.
    public var effectiveInterval: Duration? {
        switch probe {
        case .log, .after: nil
        case .exec: interval ?? Self.execInterval
        case .tcp, .http: interval ?? Self.networkInterval
        }
    }

    /// The probe as the manifest writes its value: `127.0.0.1:5433`, `http://[::1]:8080/health`,
    /// or the `exec` line or `log` text itself.
    public var target: String {
        switch probe {
        case .exec(let line): line
        case .log(let text): text
        case .after(let delay): DurationText.format(delay)
        case .tcp(let host, let port): Self.authority(host: host, port: port)
        case .http(let host, let port, let path): "http://" + Self.authority(host: host, port: port) + path
        }
    }

    /// The manifest key of the probe: `exec`, `tcp`, `http`, `log` or `after`.
    public var kind: String {
        switch probe {
        case .exec: "exec"
        case .tcp: "tcp"
        case .http: "http"
        case .log: "log"
        case .after: "after"
        }
    }

    /// One line for `startup plan`: `tcp 127.0.0.1:5433 every 10ms, timeout 30s`,
    /// `log "listening on", timeout 30s`. User text (an `exec` line, a `log` text) is quoted and
    /// escaped.
    ///
    /// - Parameter timeout: The ready timeout in force (see ``ManifestCommand/readyTimeout(defaults:)``).
    public func summary(timeout: Duration) -> String {
        let shown: String
        switch probe {
        case .exec, .log: shown = MessageQuoting.quoted(target)
        case .tcp, .http, .after: shown = MessageQuoting.escaped(target)
        }
        let every = effectiveInterval.map { " every \(DurationText.format($0))" } ?? ""
        return "\(kind) \(shown)\(every), timeout \(DurationText.format(timeout))"
    }

    /// `host:port`, with an IPv6 host in brackets.
    private static func authority(host: String, port: Int) -> String {
        (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
    }
}
