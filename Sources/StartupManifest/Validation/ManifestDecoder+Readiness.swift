import StartupJSON
import StartupKit
import StartupSupport

/// Reads a command's `"ready"` object: exactly one probe (`exec`, `tcp`, `http`, `log`, `after`),
/// with an optional `interval` and `timeout`.
extension ManifestDecoder {
    /// The probe keys of `"ready"`.
    static let probeKeys = ["exec", "tcp", "http", "log", "after"]
    /// The keys of `"ready"`.
    static let readinessKeys = probeKeys + ["interval", "timeout"]
    /// The shortest and longest `interval`.
    static let intervalRange = Duration.milliseconds(1)...Duration.seconds(3_600)

    /// The readiness check of a command, or `nil` after reporting each problem.
    ///
    /// - Parameters:
    ///   - member: The `"ready"` member.
    ///   - path: `commands[2] ("database").ready`.
    ///   - hasRun: Whether the command has a `run` line (a milestone cannot be a service).
    mutating func readiness(_ member: JSONMember, path: String, hasRun: Bool) -> ManifestReadiness? {
        let element = JSONElement(value: member.value, location: member.valueLocation)
        guard let members = object(element, path: path, allowed: Self.readinessKeys, what: "a readiness probe") else { return nil }
        var complete = true
        if !hasRun {
            report(member.keyLocation, path, "a service needs a \"run\" line that starts it; a command without \"run\" is a milestone")
            complete = false
        }
        guard let (written, single) = onlyOne(of: Self.probeKeys, in: members, of: member, path: path, what: "probe") else { return nil }
        if !single { complete = false }
        let probe = self.probe(written, path: "\(path).\(written.key)")
        var interval: Duration?
        if let intervalMember = members["interval"] {
            interval = self.interval(intervalMember, path: path + ".interval")
            if let probe, probe.isPolled == false {
                report(
                    intervalMember.keyLocation, path + ".interval",
                    "\(written.key == "after" ? "an" : "a") \(written.key) probe is never polled; leave \"interval\" out")
                complete = false
            }
            if interval == nil { complete = false }
        }
        var timeout: Duration?
        if let timeoutMember = members["timeout"] {
            timeout = self.timeout(timeoutMember, path: path + ".timeout")
            if timeout == nil { complete = false }
        }
        guard complete, let probe else { return nil }
        return ManifestReadiness(probe: probe, interval: interval, timeout: timeout)
    }

    /// The one member of `members` under one of `keys` (the first written, after reporting any other), and whether
    /// it was the only one; `nil` after reporting that none is there.
    ///
    /// - Parameter what: `probe` or `check`, for the messages.
    mutating func onlyOne(
        of keys: [String], in members: JSONMembers, of member: JSONMember, path: String, what: String
    ) -> (member: JSONMember, single: Bool)? {
        let given = keys.compactMap { members[$0] }.sorted {
            ($0.keyLocation.line, $0.keyLocation.column) < ($1.keyLocation.line, $1.keyLocation.column)
        }
        let names = keys.map { "\"\($0)\"" }
        let choice = "give exactly one of " + names.dropLast().joined(separator: ", ") + " or " + names.last!
        guard let written = given.first else {
            report(member.valueLocation, path, "missing a \(what); \(choice)")
            return nil
        }
        guard given.count == 1 else {
            let found = given.map { "\"\($0.key)\"" }.joined(separator: ", ")
            report(given[1].keyLocation, path, "more than one \(what) (\(found)); \(choice)")
            return (written, false)
        }
        return (written, true)
    }

    /// The probe under `member`'s key (`exec`, `tcp`, `http`, `after` or `log`), or `nil` after reporting why not.
    ///
    /// - Parameter execMeaning: When an `exec` line exits 0, for the message about an empty one: `once the service is
    ///   ready` (for `"ready"`), `while the service is alive` (for `"alive"`).
    mutating func probe(
        _ member: JSONMember, path: String, execMeaning: String = "once the service is ready"
    ) -> ManifestReadiness.Probe? {
        switch member.key {
        case "exec":
            return shellLine(member, path: path, ifEmpty: "give a shell line that exits 0 \(execMeaning)").map { .exec($0) }
        case "tcp":
            return string(member, path: path).flatMap { tcpProbe($0, member: member, path: path) }
        case "http":
            return string(member, path: path).flatMap { httpProbe($0, member: member, path: path) }
        case "after":
            if case .array = member.value {
                // Command ids: the command's own "after" (an order-only edge), not this probe's time.
                report(
                    member.valueLocation, path,
                    "expected a duration such as \"250ms\", found an array; to run after other commands, "
                        + "give the command itself \"after\": [ids]")
                return nil
            }
            return duration(member, path: path).map { .after($0) }
        default:
            guard let text = string(member, path: path) else { return nil }
            guard !text.isEmpty else {
                report(member.valueLocation, path, "empty log text; give the text the service prints once it is ready")
                return nil
            }
            guard !text.contains(where: \.isNewline) else {
                report(
                    member.valueLocation, path, "the text \(MessageQuoting.quoted(text)) spans lines; a log probe matches within one line")
                return nil
            }
            return .log(text)
        }
    }

    /// The duration of a probe's `interval` (or, with `liveness`, a check's), reported unless it is in
    /// ``intervalRange`` (for a check, from ``ManifestLiveness/shortestInterval``).
    mutating func interval(_ member: JSONMember, path: String, liveness: Bool = false) -> Duration? {
        guard let value = duration(member, path: path) else { return nil }
        let range = liveness ? ManifestLiveness.shortestInterval...Self.intervalRange.upperBound : Self.intervalRange
        guard range.contains(value) else {
            let what = liveness ? "a liveness check's interval must be from 100ms" : "an interval must be from 1ms"
            report(member.valueLocation, path, "\(what) to 60m, found \(describe(member.value))")
            return nil
        }
        return value
    }

    /// `host:port` of a `tcp` probe.
    private mutating func tcpProbe(_ text: String, member: JSONMember, path: String) -> ManifestReadiness.Probe? {
        let example = "write \"host:port\", such as \"127.0.0.1:5433\" or \"[::1]:5433\""
        guard let (host, port) = hostAndPort(text, defaultPort: nil, member: member, path: path, example: example) else { return nil }
        return .tcp(host: host, port: port)
    }

    /// `http://host[:port][/path]` of an `http` probe.
    private mutating func httpProbe(_ text: String, member: JSONMember, path: String) -> ManifestReadiness.Probe? {
        let scheme = "http://"
        guard text.lowercased().hasPrefix(scheme) else {
            let problem =
                text.lowercased().hasPrefix("https://")
                ? "plain HTTP only: \(MessageQuoting.quoted(text)) needs TLS; probe its port with \"tcp\" instead"
                : "expected a URL that starts with \"http://\", such as \"http://127.0.0.1:8080/health\", found \(MessageQuoting.quoted(text))"
            report(member.valueLocation, path, problem)
            return nil
        }
        let rest = text.dropFirst(scheme.count)
        let authority = rest.prefix { $0 != "/" }
        let target = rest.dropFirst(authority.count)
        guard !target.contains(where: { $0.isWhitespace || $0.unicodeScalars.contains(where: Self.isControl) }) else {
            report(member.valueLocation, path, "the path of \(MessageQuoting.quoted(text)) must not contain spaces or control characters")
            return nil
        }
        let example = "write \"http://host[:port]/path\", such as \"http://127.0.0.1:8080/health\""
        guard let (host, port) = hostAndPort(String(authority), defaultPort: 80, member: member, path: path, example: example, whole: text)
        else { return nil }
        return .http(host: host, port: port, path: target.isEmpty ? "/" : String(target))
    }

    /// Splits `host:port` (`[v6]:port`), checking both; `defaultPort` when the port may be left out.
    /// Messages quote `whole`, the value as written.
    private mutating func hostAndPort(
        _ text: String, defaultPort: Int?, member: JSONMember, path: String, example: String,
        whole: String? = nil
    ) -> (String, Int)? {
        let written = MessageQuoting.quoted(whole ?? text)
        var host = Substring(text)
        var portText: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else {
                report(member.valueLocation, path, "invalid host in \(written): an IPv6 address needs its closing \"]\"; \(example)")
                return nil
            }
            let after = host[host.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else {
                    report(member.valueLocation, path, "invalid address \(written); \(example)")
                    return nil
                }
                portText = after.dropFirst()
            }
            host = host[host.index(after: host.startIndex)..<close]
        } else if let colon = host.lastIndex(of: ":") {
            portText = host[host.index(after: colon)...]
            host = host[..<colon]
            if host.contains(":") {
                report(member.valueLocation, path, "invalid host in \(written): write an IPv6 address in brackets, such as \"[::1]:8080\"")
                return nil
            }
        }
        guard !host.isEmpty else {
            report(member.valueLocation, path, "missing host in \(written); \(example)")
            return nil
        }
        guard host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ".-_:%".contains($0)) }) else {
            report(member.valueLocation, path, "invalid host in \(written): use a name or an IP address; \(example)")
            return nil
        }
        guard let portText else {
            if let defaultPort { return (String(host), defaultPort) }
            report(member.valueLocation, path, "missing port in \(written); \(example)")
            return nil
        }
        guard portText.allSatisfy({ $0.isASCII && $0.isNumber }), let port = Int(portText), (1...65_535).contains(port) else {
            report(
                member.valueLocation, path,
                "the port must be a whole number from 1 to 65535, found \(MessageQuoting.quoted(portText)) in \(written)")
            return nil
        }
        return (String(host), port)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
