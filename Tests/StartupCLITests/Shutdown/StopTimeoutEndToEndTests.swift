import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A stop line's own bound, `"stopTimeout"`, through the built binary: a service's stop line is not cut at the grace
/// period, one still running at its stopTimeout gets SIGTERM first and its line says so, and the service's processes
/// have their grace period only once the line has ended. What each line did is written to the file `m`.
@Suite(.timeLimit(.minutes(2))) struct StopTimeoutEndToEndTests {
    /// Holds `manifest`'s services, interrupts the run once, and returns what it printed after the interrupt, its exit
    /// status and the file `m`.
    private func stop(_ manifest: String, gracePeriod: String) async throws -> (output: String, status: Int32, m: String) {
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", manifest)
        let running = try StartupBinary.startWithPipedOutput(
            ["run", "--no-report", "--grace-period", gracePeriod], in: folder.path, mergingErrors: true)
        defer { try? FileManager.default.removeItem(atPath: running.errorFile) }
        let held = await LineReader.readLines(from: running.output, through: "Services running", closes: false)
        try #require(held.contains("Services running"), "the run was not held: \(held)")
        kill(running.process.processIdentifier, SIGINT)
        let rest = await LineReader.readLines(from: running.output, through: nil, closes: true)
        let status = await running.exit.value()
        return (rest, status, (try? String(contentsOfFile: folder.file("m"), encoding: .utf8)) ?? "")
    }

    @Test func aServiceStopLineLongerThanTheGracePeriod_runsToItsEnd() async throws {
        // It used to get SIGKILL at 1x the grace period, with no SIGTERM: "stop line failed: killed by signal 9", and
        // nothing flushed. `exec` keeps the service's pid, which the line stops once it has flushed.
        let (output, status, m) = try await stop(
            #"""
            {"version": 1, "commands": [{"id": "api", "ready": {"log": "up"}, "run": "echo $$ > s.pid; echo up; exec sleep 100",
              "stop": "sleep 2.5; echo flushed >> m; kill $(cat s.pid)"}]}
            """#, gracePeriod: "1s")
        #expect(m == "flushed\n")
        #expect(status == 130, "\(output)")
        #expect(output.contains("✓ api") && !output.contains("stop line failed"), "\(output)")
    }

    @Test func aServiceStopLineAtItsStopTimeout_getsSIGTERMFirst_andItsLineSaysSo() async throws {
        let (output, status, m) = try await stop(
            #"""
            {"version": 1, "commands": [{"id": "api", "ready": {"log": "up"}, "run": "echo up; exec sleep 100",
              "stopTimeout": "300ms", "stop": "trap 'echo TERM >> m; exit 3' TERM; sleep 100 & wait"}]}
            """#, gracePeriod: "1s")
        #expect(m == "TERM\n", "the stop line did not get SIGTERM")
        #expect(output.contains("✗ api") && output.contains("stop line stopped at its 300ms stopTimeout"), "\(output)")
        #expect(!output.contains("killed after the grace period"), "\(output)")
        #expect(status == 1, "a stop line stopped at its bound is a failed stop")
    }

    @Test func afterAServiceStopLine_theServiceHasTheGracePeriodFromTheLinesEnd_thenSIGTERM() async throws {
        // The line takes three grace periods and leaves the service running. The service used to get SIGTERM two grace
        // periods after the stop began, while its line still ran.
        let (output, status, m) = try await stop(
            #"""
            {"version": 1, "commands": [{"id": "worker", "ready": {"log": "up"},
              "run": "trap 'echo TERM >> m; exit 0' TERM; echo up; while :; do sleep 0.05; done",
              "stop": "sleep 3.2; echo line-done >> m"}]}
            """#, gracePeriod: "1s")
        #expect(m == "line-done\nTERM\n")
        #expect(status == 130, "\(output)")
        #expect(output.contains("✓ worker") && output.contains("exited after SIGTERM"), "\(output)")
    }

    @Test func stopTimeout_isRangeCheckedLikeOtherDurations_andNeedsAStopLine() async throws {
        let cases = [
            (#""stop": "true", "stopTimeout": "9000h""#, #"invalid duration "9000h": too long; a duration is at most 8760h (365 days)"#),
            (#""stop": "true", "stopTimeout": "0s""#, "a stopTimeout must be longer than zero"),
            (#""stop": "true", "stopTimeout": 10"#, #"a duration needs a unit: found the bare number 10"#),
            (#""stopTimeout": "5s""#, #""stopTimeout" bounds the command's "stop" line, and it has none"#),
        ]
        for (members, message) in cases {
            let folder = try TemporaryDirectory()
            try folder.write("commands.json", #"{"version": 1, "commands": [{"id": "a", "run": "true", \#(members)}]}"#)
            let result = try await StartupBinary.run(["run", "--no-report"], in: folder.path)
            #expect(result.status == 65, "\(members): \(result.error)")
            #expect(result.error.contains(#"commands[0] ("a").stopTimeout: "# + message), "\(result.error)")
        }
    }

    @Test func plan_showsEachStopLinesStopTimeout_inTextAndJSON() async throws {
        let folder = try TemporaryDirectory()
        try folder.write(
            "commands.json",
            #"""
            {"version": 1, "commands": [
              {"id": "db", "run": "true", "stop": "true", "stopTimeout": "1.5h"},
              {"id": "api", "run": "true", "stop": "true", "ready": {"after": "0s"}, "dependencies": ["db"]},
              {"id": "web", "run": "true", "dependencies": ["api"]}
            ]}
            """#)
        let text = try await StartupBinary.run(["plan"], in: folder.path)
        #expect(text.status == 0, "\(text.error)")
        let lines = text.output.split(separator: "\n")
        #expect(lines.first { $0.contains(" db ") }?.hasSuffix("  stop line: stopTimeout 90m00s") == true, "\(text.output)")
        #expect(lines.first { $0.contains(" api ") }?.hasSuffix("  stop line: stopTimeout 10s") == true, "\(text.output)")
        #expect(lines.first { $0.contains(" web ") }?.contains("stop line") == false, "\(text.output)")
        let json = try await StartupBinary.run(["plan", "--format", "json"], in: folder.path)
        let report = try RunReportJSON.object(json.output)
        #expect(RunReportJSON.command("db", in: report)?["stopTimeoutMs"] as? Int == 5_400_000)
        #expect(RunReportJSON.command("api", in: report)?["stopTimeoutMs"] as? Int == 10_000)
        #expect(RunReportJSON.command("web", in: report)?["stopTimeoutMs"] == nil)
    }
}
