import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Services through the `startup` binary, against `startup-test-server`: dependents start after
/// ready, a probe that times out, a service that exits by itself, `-- CMD`, Ctrl-C; and no
/// process is left behind. Each test marks its servers with a unique `--ready-line` so leftovers
/// can be found in `/proc`.
@Suite(.timeLimit(.minutes(2))) struct ServicesEndToEndTests {
    /// A test server command line for a manifest: listening on `port` after `delay`, printing `marker`.
    private func server(port: Int, delay: String = "0ms", marker: String, extra: String = "") -> String {
        "\(TestServer.path) --port \(port) --delay \(delay) --ready-line \(marker)-listening \(extra)"
    }

    @Test func aDependent_startsOnlyAfterItsServiceIsReady_andCIModeReturnsTheCommandsStatus() async throws {
        let folder = try TemporaryDirectory()
        let marker = "svc-\(UUID().uuidString)"
        let port = TestServer.freePort()
        try folder.write(
            "commands.json",
            """
            {"version": 1, "commands": [
              {"id": "database", "run": "\(server(port: port, delay: "200ms", marker: marker))", "ready": {"tcp": "127.0.0.1:\(port)"}},
              {"id": "api", "dependencies": ["database"], "run": "true"}
            ]}
            """)
        let result = try await StartupBinary.run(["run", "--no-report", "--format", "json", "--", "sh", "-c", "exit 7"], in: folder.path)
        #expect(result.status == 7, "CMD's status: \(result.error)")
        let report = try RunReportJSON.object(result.output)
        let database = try #require(RunReportJSON.command("database", in: report))
        let api = try #require(RunReportJSON.command("api", in: report))
        #expect(database["service"] as? Bool == true && api["service"] as? Bool == false)
        let readyMs = try #require(database["readyMs"] as? Double)
        #expect(readyMs >= 200, "ready only once the server listens, after its delay")
        #expect(readyMs == database["durationMs"] as? Double, "a service's duration is its time to ready")
        #expect(api["readyMs"] is NSNull)
        #expect(try #require(api["startMs"] as? Double) >= (try #require(database["endMs"] as? Double)))
        #expect(result.error.contains("database | \(marker)-listening"), "services' output goes to standard error with --format json")
        let shutdown = try #require(report["shutdown"] as? [String: Any], "the shutdown after CMD is in the report")
        #expect(shutdown["status"] as? String == "succeeded")
        #expect((shutdown["stops"] as? [[String: Any]])?.map { $0["id"] as? String } == ["database"])
        #expect(TestServer.processes(marked: marker).isEmpty, "nothing is left running")

        let succeeded = try await StartupBinary.run(["run", "--no-report", "--", "true"], in: folder.path)
        #expect(succeeded.status == 0)
        #expect(succeeded.output.contains("database"))
        #expect(succeeded.output.contains("ready"))
        #expect(TestServer.processes(marked: marker).isEmpty)
    }

    @Test func aFailedStopLine_isInTheJSONReport_withItsReason() async throws {
        // The report said "succeeded" and nothing else; without `--`, the exit status was 1 with nothing anywhere
        // saying why.
        let folder = try TemporaryDirectory()
        try folder.write(
            "commands.json",
            #"""
            {"version": 1, "commands": [{"id": "database", "ready": {"log": "up"},
              "run": "echo $$ > database.pid; echo up; exec sleep 100", "stop": "kill $(cat database.pid); exit 3"}]}
            """#)
        let result = try await StartupBinary.run(["run", "--no-report", "--format", "json", "--", "true"], in: folder.path)
        #expect(result.status == 0, "CMD's status: \(result.error)")
        let report = try RunReportJSON.object(result.output)
        #expect(report["status"] as? String == "succeeded", "the start-up succeeded")
        let shutdown = try #require(report["shutdown"] as? [String: Any], "\(result.output)")
        #expect(shutdown["status"] as? String == "failed")
        let stop = try #require((shutdown["stops"] as? [[String: Any]])?.first)
        #expect(stop["id"] as? String == "database" && stop["status"] as? String == "failed")
        #expect(stop["error"] as? String == "stop line failed: exit status 3")
    }

    @Test func aProbeThatTimesOut_failsTheService_stopsIt_skipsItsDependents_andCMDNeverRuns() async throws {
        let folder = try TemporaryDirectory()
        let marker = "svc-\(UUID().uuidString)"
        let port = TestServer.freePort()
        try folder.write(
            "commands.json",
            """
            {"version": 1, "commands": [
              {"id": "database", "run": "\(server(port: port, delay: "60s", marker: marker))",
               "ready": {"tcp": "127.0.0.1:\(port)", "timeout": "300ms"}},
              {"id": "api", "dependencies": ["database"], "run": "true"}
            ]}
            """)
        let result = try await StartupBinary.run(["run", "--no-report", "--grace-period", "200ms", "--", "touch", "ran"], in: folder.path)
        #expect(result.status == 1)
        #expect(result.output.contains("timed out after 300ms"))
        #expect(result.output.contains("api"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("ran")), "CMD never runs when the start-up fails")
        #expect(TestServer.processes(marked: marker).isEmpty, "the service was stopped")
    }

    @Test func aServiceThatExitsAfterReady_shutsTheStackDownInOrder_withExit1() async throws {
        let folder = try TemporaryDirectory()
        let marker = "svc-\(UUID().uuidString)"
        let (databasePort, apiPort) = (TestServer.freePort(), TestServer.freePort())
        try folder.write(
            "commands.json",
            """
            {"version": 1, "commands": [
              {"id": "database", "run": "\(server(port: databasePort, marker: marker))", "ready": {"log": "listening"}},
              {"id": "migrate", "dependencies": ["database"], "run": "true", "stop": "echo migrate >> stops"},
              {"id": "api", "dependencies": ["migrate"], "run": "\(server(port: apiPort, marker: marker, extra: "--exit-after 300ms"))",
               "ready": {"http": "http://127.0.0.1:\(apiPort)/health"}}
            ]}
            """)
        let result = try await StartupBinary.run(["run", "--no-report"], in: folder.path)
        #expect(result.status == 1, "\(result.output)\(result.error)")
        #expect(result.output.contains("api") && result.output.contains("ended by itself"))
        #expect(result.error.contains(#"service "api" ended by itself after it was ready"#))
        let stops = result.output.components(separatedBy: "Stopping in reverse dependency order:").last ?? ""
        let migrate = try #require(stops.range(of: "migrate")).lowerBound
        let database = try #require(stops.range(of: "database")).lowerBound
        #expect(migrate < database, "migrate's stop line runs before its database stops")
        #expect(try String(contentsOfFile: folder.file("stops"), encoding: .utf8) == "migrate\n")
        #expect(TestServer.processes(marked: marker).isEmpty)
    }

    @Test func ctrlC_stopsTheServicesInReverseOrder_andExits130() async throws {
        let folder = try TemporaryDirectory()
        let marker = "svc-\(UUID().uuidString)"
        let (databasePort, apiPort) = (TestServer.freePort(), TestServer.freePort())
        try folder.write(
            "commands.json",
            """
            {"version": 1, "commands": [
              {"id": "database", "run": "\(server(port: databasePort, marker: marker))", "ready": {"tcp": "127.0.0.1:\(databasePort)"}},
              {"id": "api", "dependencies": ["database"], "run": "\(server(port: apiPort, marker: marker, extra: "--ignore-term"))",
               "ready": {"log": "listening"}}
            ]}
            """)
        let running = try StartupBinary.startWithPipedOutput(["run", "--no-report", "--grace-period", "1s"], in: folder.path)
        defer { try? FileManager.default.removeItem(atPath: running.errorFile) }
        let held = await LineReader.readLines(from: running.output, through: "Services running", closes: false)
        try #require(held.contains("Services running"), "startup ended without holding its services: \(held)")
        #expect(TestServer.processes(marked: marker).count == 2)
        kill(running.process.processIdentifier, SIGINT)
        let rest = await LineReader.readLines(from: running.output, through: nil, closes: true)
        #expect(await running.exit.value() == 130)
        // api ignores SIGTERM: killed after the grace, and never shown as a clean stop.
        let api = try #require(rest.range(of: "! api")).lowerBound
        let database = try #require(rest.range(of: "✓ database")).lowerBound
        #expect(api < database, "api stops before what it depends on: \(rest)")
        #expect(rest.contains("killed after the grace period (1 process)"))
        #expect(TestServer.processes(marked: marker).isEmpty)
    }
}
