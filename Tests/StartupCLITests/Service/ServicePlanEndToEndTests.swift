import Foundation
import Testing

/// `startup plan` shows how each service's readiness is probed, in text and in JSON, through the built binary.
@Suite struct ServicePlanEndToEndTests {
    static let manifest = #"""
        {"version": 1, "defaults": {"timeout": "20s"}, "commands": [
          {"id": "database", "run": "postgres", "estimate": "300ms", "ready": {"tcp": "127.0.0.1:5433"}},
          {"id": "cache", "run": "redis", "estimate": "50ms", "timeout": "5s", "ready": {"exec": "redis-cli ping", "interval": "50ms"}},
          {"id": "api", "dependencies": ["database", "cache"], "run": "serve", "estimate": "200ms",
           "ready": {"http": "http://[::1]:8080/health", "timeout": "3s"}},
          {"id": "worker", "dependencies": ["api"], "run": "work", "estimate": "10ms", "ready": {"log": "worker \u001B[1mup"}},
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
        #expect(lines.contains(" * api 200ms after database, cache ready: http http://[::1]:8080/health every 10ms, timeout 3s"))
        #expect(lines.contains(#" * worker 10ms after api ready: log "worker \u001B[1mup", timeout 20s"#))
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
    }
}
