import StartupKit
import StartupManifest
import StartupReporting

/// What `plan --format json` says of services: each command gains `"service": true|false` and a
/// service `"ready": {"tcp": "127.0.0.1:5433", "intervalMs": 10, "timeoutMs": 30000}`, the probe
/// under its manifest key (`intervalMs` `null` for a `log` probe, which is never polled), `"restart":
/// {"on": "failure", "limit": 5, "delayMs": 500}` or `null`, and `"alive": {"http": "http://…", "intervalMs": 5000,
/// "failures": 3}` or `null`. A command with a `stop` line also gains `"stopTimeoutMs": 10000`, its `stopTimeout`, and one with `"watch"`
/// gains `"watch": {"paths": ["src/**/*.py", "!src/**/test_*"], "debounceMs": 200}`.
enum PlanServicesJSON {
    /// `plan` with every command object of its `"commands"` annotated from `manifest`.
    static func annotate(_ plan: JSONOutput, manifest: Manifest) -> JSONOutput {
        guard case .object(var members) = plan else { return plan }
        var services: [CommandID: ManifestCommand] = [:]
        for command in manifest.commands where command.isService { services[command.id] = command }
        var stopTimeouts: [CommandID: Duration] = [:]
        for command in manifest.commands where command.stop != nil {
            stopTimeouts[command.id] = command.stopTimeout ?? ManifestCommand.defaultStopTimeout
        }
        var watches: [CommandID: ManifestWatch] = [:]
        for command in manifest.commands { watches[command.id] = command.watch }
        for (index, member) in members.enumerated() where member.key == "commands" {
            guard case .array(let commands) = member.value else { continue }
            members[index].value = .array(
                commands.map { command in
                    guard case .object(let fields) = command, case .string(let id)? = fields.first(where: { $0.key == "id" })?.value else {
                        return command
                    }
                    let extras =
                        (stopTimeouts[CommandID(id)].map { [("stopTimeoutMs", JSONOutput.milliseconds($0))] } ?? [])
                        + (watches[CommandID(id)].map { [("watch", json($0))] } ?? [])
                    guard let service = services[CommandID(id)], let ready = service.ready else {
                        return .object(fields + [("service", .bool(false))] + extras)
                    }
                    return .object(
                        fields + [
                            ("service", .bool(true)), ("ready", json(ready, timeout: service.readyTimeout(defaults: manifest.defaults))),
                            ("restart", service.restart.map(json(_:)) ?? .null), ("alive", service.alive.map(json(_:)) ?? .null),
                        ] + extras)
                })
        }
        return .object(members)
    }

    /// `{"paths": ["src/**/*.py", "!src/**/test_*"], "debounceMs": 200}`.
    private static func json(_ watch: ManifestWatch) -> JSONOutput {
        .object([("paths", .array(watch.paths.map { .string($0) })), ("debounceMs", .milliseconds(watch.debounce))])
    }

    /// `{"on": "failure", "limit": 5, "delayMs": 500}`.
    private static func json(_ restart: RestartPolicy) -> JSONOutput {
        .object([
            ("on", .string(restart.condition == .failure ? "failure" : "exit")), ("limit", .integer(restart.limit)),
            ("delayMs", .milliseconds(restart.delay)),
        ])
    }

    /// `{"http": "http://127.0.0.1:8080/health", "intervalMs": 5000, "failures": 3}`.
    private static func json(_ alive: ManifestLiveness) -> JSONOutput {
        let check = ManifestReadiness(probe: alive.probe)
        return .object([
            (check.kind, .string(check.target)), ("intervalMs", .milliseconds(alive.interval)), ("failures", .integer(alive.failures)),
        ])
    }

    /// `{"tcp": "127.0.0.1:5433", "intervalMs": 10, "timeoutMs": 30000}`.
    private static func json(_ ready: ManifestReadiness, timeout: Duration) -> JSONOutput {
        .object([
            (ready.kind, .string(ready.target)),
            ("intervalMs", ready.effectiveInterval.map(JSONOutput.milliseconds) ?? .null),
            ("timeoutMs", .milliseconds(timeout)),
        ])
    }
}
