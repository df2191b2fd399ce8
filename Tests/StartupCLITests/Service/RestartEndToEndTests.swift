import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `"restart"` through the built binary: a service that crashes is started again after a delay that doubles, its
/// dependents keep running, the stack stays up until the limit is used up, and then it shuts down in order, exit 1.
/// Each crash is the service's own `exit 1` a moment after its ready line: no test waits on a clock.
@Suite(.timeLimit(.minutes(2))) struct RestartEndToEndTests {
    /// A stack of a `worker` that prints `up`, then ends with `status` after `lifetime`, and an `api` that depends on
    /// it and runs until stopped.
    private func stack(status: Int, restart: String, lifetime: String = "0.2") -> String {
        """
        {"version": 1, "commands": [
          {"id": "worker", "run": "echo up; sleep \(lifetime); exit \(status)", "ready": {"log": "up"}, "restart": \(restart)},
          {"id": "api", "dependencies": ["worker"], "run": "echo api started; exec sleep 30", "ready": {"log": "api started"}}
        ]}
        """
    }

    @Test func aServiceThatCrashes_isRestartedTwice_thenTheThirdCrashPastTheLimitShutsDownInOrder() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", stack(status: 1, restart: #"{"limit": 2, "delay": "100ms"}"#))
        let result = try await StartupBinary.run(["run", "--no-report"], in: folder.path)
        #expect(result.status == 1)
        let output = result.output
        #expect(output.contains("↻ worker exited with status 1, restarting in 100ms (1 of 2)"), "\(output)")
        #expect(output.contains("↻ worker exited with status 1, restarting in 200ms (2 of 2)"), "the delay doubles: \(output)")
        #expect(output.components(separatedBy: "api started").count - 1 == 1, "the dependent is not restarted: \(output)")
        #expect(
            result.error.contains(
                #"error: service "worker" ended by itself after it was ready: exited with status 1 (restarted 2 times before); shutting down"#
            ),
            "\(result.error)")
        let shutdown = try #require(output.range(of: "Stopping in reverse dependency order:").map { String(output[$0.upperBound...]) })
        #expect(shutdown.contains("exited after SIGTERM"), "the api is stopped gently: \(shutdown)")
        #expect(shutdown.contains("worker") && shutdown.contains("restarted 2 times"), "\(shutdown)")
    }

    @Test func aCrashThatLeavesItsServerRunning_isRestarted_theLeftoverStoppedFirst_andNothingOutlivesTheRun() async throws {
        let folder = try TemporaryDirectory()
        let port = TestServer.freePort()
        let marker = "leftover-\(UUID().uuidString)"
        // The shell crashes and leaves its server listening, outside its process group and session (`setsid`).
        try folder.write(
            "commands.json",
            """
            {"version": 1, "commands": [
              {"id": "api", "run": "setsid \(TestServer.path) --port \(port) --ready-line \(marker) & sleep 0.3; exit 1",
               "ready": {"tcp": "127.0.0.1:\(port)"}, "restart": {"limit": 1, "delay": "10ms"}}
            ]}
            """)
        let result = try await StartupBinary.run(["run", "--no-report"], in: folder.path)
        #expect(result.status == 1)
        #expect(result.output.contains("↻ api exited with status 1, restarting in 10ms (1 of 1)"), "\(result.output)")
        #expect(!(result.output + result.error).contains("already in use"), "its own leftover blocked it: \(result.output)")
        #expect(result.output.components(separatedBy: "api | \(marker)").count - 1 == 2, "both incarnations started: \(result.output)")
        #expect(
            result.error.contains(
                #"error: service "api" ended by itself after it was ready: exited with status 1 (restarted 1 time before)"#),
            "\(result.error)")
        #expect(TestServer.processes(marked: marker).isEmpty, "a leftover outlived startup")
    }

    @Test func onFailure_aCleanExitIsNotRestarted() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", stack(status: 0, restart: #"{"on": "failure", "delay": "10ms"}"#))
        let result = try await StartupBinary.run(["run", "--no-report"], in: folder.path)
        #expect(result.status == 1)
        #expect(!result.output.contains("↻"), "\(result.output)")
        #expect(result.output.contains("✗ worker ended by itself: exited with status 0"), "\(result.output)")
    }

    @Test func onExit_aCleanExitIsRestarted() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", stack(status: 0, restart: #"{"on": "exit", "limit": 1, "delay": "10ms"}"#))
        let result = try await StartupBinary.run(["run", "--no-report"], in: folder.path)
        #expect(result.status == 1)
        #expect(result.output.contains("↻ worker exited with status 0, restarting in 10ms (1 of 1)"), "\(result.output)")
    }

    @Test func theJSON_listsEachEndThatARestartFollowed() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", stack(status: 3, restart: #"{"limit": 2, "delay": "10ms"}"#))
        let result = try await StartupBinary.run(["run", "--no-report", "--format", "json"], in: folder.path)
        #expect(result.status == 1)
        let report = try RunReportJSON.object(result.output)
        let stops = try #require((report["shutdown"] as? [String: Any])?["stops"] as? [[String: Any]])
        let worker = try #require(stops.first { $0["id"] as? String == "worker" })
        let restarts = try #require(worker["restarts"] as? [[String: Any]])
        #expect(restarts.map { $0["end"] as? String } == ["exited with status 3", "exited with status 3"])
        #expect(restarts.allSatisfy { $0["atMs"] is NSNumber })
        #expect(worker["error"] as? String == "ended by itself: exited with status 3")
        let api = try #require(stops.first { $0["id"] as? String == "api" })
        #expect((api["restarts"] as? [Any])?.isEmpty == true)
    }

    @Test func ciMode_restartsNeitherHoldNorStopTheCommand() async throws {
        let folder = try TemporaryDirectory()
        try folder.write(
            "commands.json",
            """
            {"version": 1, "commands": [
              {"id": "worker", "run": "echo start >> starts; echo up; sleep 0.1; exit 1", "ready": {"log": "up"},
               "restart": {"limit": 5, "delay": "10ms"}}
            ]}
            """)
        // The command runs until the worker has been restarted twice, then succeeds.
        let command = #"until [ "$(wc -l < starts)" -ge 3 ]; do sleep 0.02; done; echo command done"#
        let result = try await StartupBinary.run(["run", "--no-report", "--", "sh", "-c", command], in: folder.path)
        #expect(result.status == 0, "\(result.output)\(result.error)")
        #expect(result.output.contains("command done"))
        #expect(result.output.contains("↻ worker exited with status 1, restarting in 20ms (2 of 5)"), "\(result.output)")
    }

    @Test func theLog_ofARestartedService_isByteExact_withAHeaderPerStart() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", stack(status: 1, restart: #"{"limit": 2, "delay": "10ms"}"#))
        let result = try await StartupBinary.run(["run", "--no-report", "--log-dir", "logs"], in: folder.path)
        #expect(result.status == 1)
        let log = try String(contentsOfFile: folder.file("logs/worker.log"), encoding: .utf8)
        let lines = log.split(separator: "\n", omittingEmptySubsequences: false)
        let headers = lines.filter { $0.hasPrefix("--- startup: ") }.map { $0.split(separator: " ").prefix(4).joined(separator: " ") }
        #expect(headers == ["--- startup: attempt 1", "--- startup: restart 1", "--- startup: restart 2"], "\(log)")
        #expect(lines.filter { !$0.hasPrefix("--- startup: ") } == ["up", "up", "up", ""], "\(log)")
    }
}

/// `"alive"` through the built binary: a service whose health check starts failing after it was ready is stopped
/// after its failures in a row and restarted; its dependents keep running.
@Suite(.timeLimit(.minutes(2))) struct LivenessEndToEndTests {
    @Test func aServiceThatStopsBeingHealthy_isStoppedAndRestarted_andItsDependentIsNot() async throws {
        let folder = try TemporaryDirectory()
        let port = TestServer.freePort()
        let marker = "alive-\(UUID().uuidString)"
        try folder.write(
            "commands.json",
            """
            {"version": 1, "commands": [
              {"id": "api", "run": "\(TestServer.path) --port \(port) --ready-line \(marker)", "ready": {"tcp": "127.0.0.1:\(port)"},
               "alive": {"http": "http://127.0.0.1:\(port)/health", "interval": "100ms", "failures": 2},
               "restart": {"limit": 1, "delay": "10ms"}},
              {"id": "client", "dependencies": ["api"], "run": "echo client started; exec sleep 30", "ready": {"log": "client started"}}
            ]}
            """)
        let running = try StartupBinary.startWithPipedOutput(["run", "--no-report"], in: folder.path)
        defer { try? FileManager.default.removeItem(atPath: running.errorFile) }
        let held = await LineReader.readLines(from: running.output, through: "Services running", closes: false)
        try #require(held.contains("Services running"), "startup ended without holding its services: \(held)")

        #expect(TestServer.get("/health-status?code=500", port: port) != nil)
        let restarting = await LineReader.readLines(from: running.output, through: "restarting in", closes: false)
        #expect(
            restarting.contains(
                "↻ api    failed 2 liveness checks in a row (the last http check: answered 500), so it was stopped: exited after SIGTERM,"
                    + " restarting in 10ms (1 of 1)"),
            "\(restarting)")
        let restarted = await LineReader.readLines(from: running.output, through: marker, closes: false)
        #expect(restarted.contains(marker), "the api started again: \(restarted)")

        kill(running.process.processIdentifier, SIGINT)
        let rest = await LineReader.readLines(from: running.output, through: nil, closes: true)
        #expect(await running.exit.value() == 130)
        let all = held + restarting + restarted + rest
        #expect(all.components(separatedBy: "client started").count - 1 == 1, "the dependent is not restarted: \(all)")
        #expect(rest.contains("restarted 1 time"), "\(rest)")
        #expect(TestServer.processes(marked: marker).isEmpty)
    }

    @Test func aLivenessStopThatKills_isTheIncarnationsEnd_notTheShutdowns() async throws {
        let folder = try TemporaryDirectory()
        // The worker ignores SIGTERM, and its first check fails: the liveness stop kills it after the grace period. A check
        // may take its interval: 1s leaves a loaded machine time to run `exit 1`.
        try folder.write(
            "commands.json",
            """
            {"version": 1, "commands": [
              {"id": "worker", "run": "trap '' TERM; echo up; exec sleep 30", "ready": {"log": "up"},
               "alive": {"exec": "exit 1", "interval": "1s", "failures": 1}, "restart": {"limit": 1, "delay": "60m"}}
            ]}
            """)
        let running = try StartupBinary.startWithPipedOutput(["run", "--no-report", "--grace-period", "100ms"], in: folder.path)
        defer { try? FileManager.default.removeItem(atPath: running.errorFile) }
        let restarting = await LineReader.readLines(from: running.output, through: "restarting in", closes: false)
        #expect(
            restarting.contains(
                "↻ worker failed its liveness check (the last exec check: exit status 1), so it was stopped: killed after the grace"
                    + " period (1 process), restarting in 60m"),
            "\(restarting)")
        kill(running.process.processIdentifier, SIGINT)  // during the restart's delay: nothing runs
        let rest = await LineReader.readLines(from: running.output, through: nil, closes: true)
        #expect(await running.exit.value() == 130)
        #expect(!rest.contains("killed"), "the shutdown killed nothing: \(rest)")
        #expect(rest.contains("✓ worker") && rest.contains("restarted 1 time"), "\(rest)")
    }
}
