import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The grace period is for the whole tree: a service behind a wrapper shell gets its whole grace
/// after SIGTERM, one SIGTERM per process, a stop that needed SIGKILL is reported as killed, and
/// what is left after a stop line is stopped gently. Through the built binary, against
/// `startup-test-server` (`--term-delay`, `--term-log`); leftovers are looked for in `/proc`.
@Suite(.timeLimit(.minutes(2))) struct StopGraceEndToEndTests {
    /// Starts `manifest`'s stack, waits until its services run, interrupts it, and returns what it printed
    /// after the interrupt and its exit status.
    private func interrupt(_ manifest: String, gracePeriod: String, in folder: TemporaryDirectory) async throws -> (
        output: String, status: Int32
    ) {
        try folder.write("commands.json", manifest)
        let running = try StartupBinary.startWithPipedOutput(["run", "--no-report", "--grace-period", gracePeriod], in: folder.path)
        defer { try? FileManager.default.removeItem(atPath: running.errorFile) }
        let held = await LineReader.readLines(from: running.output, through: "Services running", closes: false)
        try #require(held.contains("Services running"), "startup ended without holding its services: \(held)")
        kill(running.process.processIdentifier, SIGINT)
        let rest = await LineReader.readLines(from: running.output, through: nil, closes: true)
        return (rest, await running.exit.value())
    }

    /// A stack of one service `id` whose run line starts a test server marked `marker` with `flags`, then
    /// `after` (a line such as `; echo done` keeps the shell as the group's leader), probed on its port.
    private func oneService(_ id: String, marker: String, flags: String, after: String = "", stop: String? = nil) -> String {
        let port = TestServer.freePort()
        let stopMember = stop.map { #", "stop": "\#($0)""# } ?? ""
        return """
            {"version": 1, "commands": [
              {"id": "\(id)", "run": "\(TestServer.path) --port \(port) --ready-line \(marker) \(flags)\(after)",
               "ready": {"tcp": "127.0.0.1:\(port)"}\(stopMember)}
            ]}
            """
    }

    @Test func aServiceBehindAWrapperShell_getsItsWholeGrace_oneSIGTERM_andIsReportedAsExitedAfterIt() async throws {
        let folder = try TemporaryDirectory()
        let marker = "grace-\(UUID().uuidString)"
        let log = folder.file("api.log")
        // The shell dies of its SIGTERM at once; the server needs 300 ms.
        let manifest = oneService("api", marker: marker, flags: "--term-delay 300ms --term-log \(log)", after: "; echo done")
        let (output, status) = try await interrupt(manifest, gracePeriod: "5s", in: folder)
        #expect(status == 130)
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "SIGTERM\nexited\n", "one SIGTERM, then a clean exit")
        #expect(output.contains("✓ api") && output.contains("exited after SIGTERM"), "\(output)")
        #expect(TestServer.processes(marked: marker).isEmpty)
    }

    @Test func aServiceThatIgnoresSIGTERM_behindAWrapper_isKilledAfterTheGrace_andReportedAsKilled() async throws {
        let folder = try TemporaryDirectory()
        let marker = "grace-\(UUID().uuidString)"
        let manifest = oneService("api", marker: marker, flags: "--ignore-term", after: "; echo done")
        let (output, status) = try await interrupt(manifest, gracePeriod: "300ms", in: folder)
        #expect(status == 130)
        #expect(output.contains("! api") && output.contains("killed after the grace period (1 process)"), "\(output)")
        #expect(!output.contains("✓ api"))
        #expect(output.contains("(1 killed after the grace period)"))
        #expect(TestServer.processes(marked: marker).isEmpty)
    }

    @Test func afterAStopLine_aLeftoverGetsOneSIGTERM_andIsGoneBeforeStartupExits() async throws {
        let folder = try TemporaryDirectory()
        let marker = "grace-\(UUID().uuidString)"
        let log = folder.file("worker.log")
        // The stop line does not stop the server: twice the grace period after the stop began it gets SIGTERM, once,
        // and one more grace period to exit, time enough for a sanitized server on a loaded machine.
        let manifest = oneService("worker", marker: marker, flags: "--term-log \(log)", stop: "true")
        let (output, status) = try await interrupt(manifest, gracePeriod: "1s", in: folder)
        #expect(status == 130)
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "SIGTERM\nexited\n")
        #expect(output.contains("✓ worker") && output.contains("exited after SIGTERM"), "\(output)")
        #expect(TestServer.processes(marked: marker).isEmpty)
    }
}

/// How a command stopped by its timeout ended, through the built binary: the whole tree gets its grace period before
/// the run moves on, and the progress line and the JSON say whether it exited after SIGTERM or had to be killed.
@Suite(.timeLimit(.minutes(2))) struct CommandStopEndingEndToEndTests {
    /// Long enough for `exec sleep 30` to be seen gone after its SIGTERM even on a loaded machine (it is killed if
    /// it is not); the stubborn command is killed when it ends.
    static let gracePeriod = "2s"

    private let manifest = """
        {"version": 1, "commands": [
          {"id": "slow", "run": "exec sleep 30", "timeout": "200ms"},
          {"id": "stubborn", "run": "trap '' TERM; sleep 30; echo done", "timeout": "200ms"}
        ]}
        """

    @Test func aTimedOutCommand_saysWhetherItExitedAfterSIGTERM_orWasKilledAfterTheGrace() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", manifest)
        let result = try await StartupBinary.run(["run", "--no-report", "--grace-period", Self.gracePeriod], in: folder.path)
        #expect(result.status == 1)
        #expect(result.output.contains("timed out after 200ms; exited after SIGTERM"), "\(result.output)")
        // The shell and its sleep both ignore SIGTERM.
        #expect(result.output.contains("timed out after 200ms; killed after the grace period (2 processes)"), "\(result.output)")
    }

    @Test func theJSON_givesEachStoppedCommandsEnding() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", manifest)
        let result = try await StartupBinary.run(
            ["run", "--no-report", "--format", "json", "--grace-period", Self.gracePeriod], in: folder.path)
        let report = try RunReportJSON.object(result.output)
        #expect(RunReportJSON.command("slow", in: report)?["ending"] as? String == "exitedAfterSigterm")
        #expect(RunReportJSON.command("slow", in: report)?["killedProcesses"] as? Int == 0)
        #expect(RunReportJSON.command("stubborn", in: report)?["ending"] as? String == "killed")
        #expect(RunReportJSON.command("stubborn", in: report)?["killedProcesses"] as? Int == 2)
    }
}
