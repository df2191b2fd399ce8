import StartupJSON
import StartupKit
import StartupSupport

/// Reads a service's `"restart"` (`{"on": "failure", "limit": 5, "delay": "500ms"}`) and `"alive"`
/// (`{"http": "http://127.0.0.1:8080/health", "interval": "5s", "failures": 3}`); both only on a service.
extension ManifestDecoder {
    /// The keys of `"restart"`.
    static let restartKeys = ["on", "limit", "delay"]
    /// The keys of `"alive"`.
    static let livenessKeys = livenessProbeKeys + ["interval", "failures"]
    /// The checks `"alive"` takes.
    static let livenessProbeKeys = ["exec", "tcp", "http"]
    /// The probes of `"ready"` that cannot tell that a running service is still alive.
    private static let unfitLivenessKeys: Set = ["log", "after"]
    /// The most restarts a run may allow.
    static let restartLimitRange = 0...1_000
    /// The longest delay before a first restart.
    static let restartDelayRange = Duration.zero...Duration.seconds(3_600)
    /// The most failed liveness checks in a row that may be asked for.
    static let livenessFailuresRange = 1...1_000

    /// The restart policy of a command, or `nil` after reporting each problem.
    ///
    /// - Parameters:
    ///   - member: The `"restart"` member.
    ///   - path: `commands[2] ("api").restart`.
    ///   - isService: Whether the command has `"ready"`.
    mutating func restartPolicy(_ member: JSONMember, path: String, isService: Bool) -> RestartPolicy? {
        let element = JSONElement(value: member.value, location: member.valueLocation)
        guard let members = object(element, path: path, allowed: Self.restartKeys, what: "a restart policy") else { return nil }
        var complete = servicesOnly(member, path: path, isService: isService)
        var condition = RestartPolicy.Condition.failure
        if let on = members["on"] {
            switch string(on, path: path + ".on") {
            case "failure": condition = .failure
            case "exit": condition = .exit
            case let other?:
                report(
                    on.valueLocation, path + ".on",
                    "expected \"failure\" (a non-zero exit or a signal) or \"exit\" (any end), found \(MessageQuoting.quoted(other))")
                complete = false
            case nil: complete = false
            }
        }
        var limit = 3
        if let member = members["limit"] {
            if let value = integer(member, path: path + ".limit", in: Self.restartLimitRange, what: "a restart limit") {
                limit = value
            } else {
                complete = false
            }
        }
        var delay = Duration.seconds(1)
        if let member = members["delay"] {
            if let value = duration(member, path: path + ".delay", in: Self.restartDelayRange, what: "a restart delay", range: "0s to 60m")
            {
                delay = value
            } else {
                complete = false
            }
        }
        return complete ? RestartPolicy(on: condition, limit: limit, delay: delay) : nil
    }

    /// The liveness check of a command, or `nil` after reporting each problem.
    ///
    /// - Parameters:
    ///   - member: The `"alive"` member.
    ///   - path: `commands[2] ("api").alive`.
    ///   - isService: Whether the command has `"ready"`.
    mutating func liveness(_ member: JSONMember, path: String, isService: Bool) -> ManifestLiveness? {
        var element = JSONElement(value: member.value, location: member.valueLocation)
        var unfit: [JSONMember] = []
        if case .object(let written) = member.value {
            unfit = written.filter { Self.unfitLivenessKeys.contains($0.key) }
            element.value = .object(written.filter { !Self.unfitLivenessKeys.contains($0.key) })
        }
        for unfitMember in unfit {
            report(
                unfitMember.keyLocation, "\(path).\(unfitMember.key)",
                "a liveness check takes \"exec\", \"tcp\" or \"http\": "
                    + (unfitMember.key == "log" ? "a line of output" : "a delay") + " cannot tell that a running service is still alive")
        }
        guard let members = object(element, path: path, allowed: Self.livenessKeys, what: "a liveness check") else { return nil }
        var complete = servicesOnly(member, path: path, isService: isService) && unfit.isEmpty
        var probe: ManifestReadiness.Probe?
        // A `log` or `after` written instead of a check has been reported; "missing a check" would say it again.
        if unfit.isEmpty || Self.livenessProbeKeys.contains(where: { members[$0] != nil }) {
            if let (written, single) = onlyOne(of: Self.livenessProbeKeys, in: members, of: member, path: path, what: "check") {
                if !single { complete = false }
                probe = self.probe(written, path: "\(path).\(written.key)", execMeaning: "while the service is alive")
            }
        }
        var interval = ManifestLiveness.defaultInterval
        if let member = members["interval"] {
            if let value = self.interval(member, path: path + ".interval", liveness: true) { interval = value } else { complete = false }
        }
        var failures = ManifestLiveness.defaultFailures
        if let member = members["failures"] {
            if let value = integer(member, path: path + ".failures", in: Self.livenessFailuresRange, what: "failures") {
                failures = value
            } else {
                complete = false
            }
        }
        guard complete, let probe else { return nil }
        return ManifestLiveness(probe: probe, interval: interval, failures: failures)
    }

    /// Reports `member` unless its command is a service; returns whether it is.
    private mutating func servicesOnly(_ member: JSONMember, path: String, isService: Bool) -> Bool {
        guard !isService else { return true }
        report(
            member.keyLocation, path,
            "\"\(member.key)\" is for services only (a command with \"ready\"); give the command a readiness probe or leave \"\(member.key)\" out"
        )
        return false
    }

    /// A whole number within `range`, or `nil` after reporting why not (`what` names it: `a restart limit must be from
    /// 0 to 1000, found 1001`).
    private mutating func integer(_ member: JSONMember, path: String, in range: ClosedRange<Int>, what: String) -> Int? {
        guard let value = integer(member, path: path) else { return nil }
        guard range.contains(value) else {
            report(member.valueLocation, path, "\(what) must be from \(range.lowerBound) to \(range.upperBound), found \(value)")
            return nil
        }
        return value
    }

    /// A duration within `range` (written `written`), or `nil` after reporting why not.
    mutating func duration(
        _ member: JSONMember, path: String, in range: ClosedRange<Duration>, what: String, range written: String
    ) -> Duration? {
        guard let value = duration(member, path: path) else { return nil }
        guard range.contains(value) else {
            report(member.valueLocation, path, "\(what) must be from \(written), found \(describe(member.value))")
            return nil
        }
        return value
    }
}
