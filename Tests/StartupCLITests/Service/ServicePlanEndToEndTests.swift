import Foundation
import Testing

/// `startup plan` shows how each service's readiness is probed, how it is restarted and how its liveness is checked, in
/// text and in JSON, through the built binary.
@Suite struct ServicePlanEndToEndTests {
    static let manifest = #"""
        {"version": 1, "defaults": {"timeout": "20s"}, "commands": [
          {"id": "database", "run": "postgres", "estimate": "300ms", "ready": {"tcp": "127.0.0.1:5433"}},
          {"id": "cache", "run": "redis", "estimate": "50ms", "timeout": "5s", "ready": {"exec": "redis-cli ping", "interval": "50ms"}},
          {"id": "api", "dependencies": ["database", "cache"], "run": "serve", "estimate": "200ms",
           "ready": {"http": "http://[::1]:8080/health", "timeout": "3s"},
           "restart": {"limit": 5, "delay": "500ms"}, "alive": {"http": "http://[::1]:8080/health", "interval": "2s"}},
          {"id": "worker", "dependencies": ["api"], "run": "work", "estimate": "10ms", "ready": {"log": "worker \u001B[1mup"},
           "restart": {"on": "exit", "limit": 1}, "alive": {"exec": "pgrep work", "failures": 1}},
          {"id": "smoke", "dependencies": ["worker"], "run": "true", "estimate": "5ms"}
        ]}
        """#

    @Test func plan_text_showsEachServicesProbe_andNothingForOtherCommands() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", Self.manifest)
        let result = try await StartupBinary.run(["plan"], in: folder.path)
        #expect(result.status == 0)
        #expect(result.error == "")
        let lines = result.output.split(separator: "\n").map { $0.replacing(/\ +/, with: " ") }
        #expect(lines.contains(" * database 300ms ready: tcp 127.0.0.1:5433 every 10ms, timeout 20s"))
        #expect(lines.contains(#" cache 50ms slack 250ms ready: exec "redis-cli ping" every 50ms, timeout 5s"#))
        #expect(
            lines.contains(
                " * api 200ms after database, cache ready: http http://[::1]:8080/health every 10ms, timeout 3s"
                    + " restart: on failure, at most 5 times, first after 500ms (doubling, at most 30s)"
                    + " alive: http http://[::1]:8080/health every 2s, 3 failures in a row stop it"))
        #expect(
            lines.contains(
                #" * worker 10ms after api ready: log "worker \u001B[1mup", timeout 20s restart: on any exit, once, first after 1s"#
                    + #" alive: exec "pgrep work" every 5s, 1 failure stops it"#))
        #expect(lines.contains(" * smoke 5ms after worker"))
    }

    @Test func plan_json_marksServices_andGivesTheProbeUnderItsManifestKey() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", Self.manifest)
        let result = try await StartupBinary.run(["plan", "--format", "json"], in: folder.path)
        #expect(result.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let commands = try #require(json["commands"] as? [[String: Any]])
        var byID: [String: [String: Any]] = [:]
        for command in commands { byID[command["id"] as! String] = command }
        #expect(byID["smoke"]?["service"] as? Bool == false)
        #expect(byID["smoke"]?["ready"] == nil)
        #expect(byID["smoke"]?["estimateMs"] as? Double == 5)
        #expect(byID["database"]?["service"] as? Bool == true)
        #expect(byID["database"]?["ready"] as? NSDictionary == ["tcp": "127.0.0.1:5433", "intervalMs": 10, "timeoutMs": 20_000])
        #expect(byID["cache"]?["ready"] as? NSDictionary == ["exec": "redis-cli ping", "intervalMs": 50, "timeoutMs": 5_000])
        #expect(byID["api"]?["ready"] as? NSDictionary == ["http": "http://[::1]:8080/health", "intervalMs": 10, "timeoutMs": 3_000])
        #expect(byID["worker"]?["ready"] as? NSDictionary == ["log": "worker \u{1B}[1mup", "intervalMs": NSNull(), "timeoutMs": 20_000])
        #expect(byID["api"]?["restart"] as? NSDictionary == ["on": "failure", "limit": 5, "delayMs": 500])
        #expect(byID["api"]?["alive"] as? NSDictionary == ["http": "http://[::1]:8080/health", "intervalMs": 2_000, "failures": 3])
        #expect(byID["worker"]?["restart"] as? NSDictionary == ["on": "exit", "limit": 1, "delayMs": 1_000])
        #expect(byID["worker"]?["alive"] as? NSDictionary == ["exec": "pgrep work", "intervalMs": 5_000, "failures": 1])
        #expect(byID["database"]?["restart"] is NSNull && byID["database"]?["alive"] is NSNull)
    }
}
