import Foundation
import Testing

/// Runs the built `startup` binary and checks standard output, standard error and exit status.
@Suite struct EndToEndTests {
    @Test func plan_validManifest_exits0() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", #"{"version": 1, "commands": [{"id": "a", "run": "true", "estimate": "5ms"}]}"#)
        let result = try await StartupBinary.run(["plan"], in: folder.path)
        #expect(result.status == 0)
        #expect(result.output.contains("Plan for commands.json: 1 command in 1 wave"))
        #expect(result.error.isEmpty)
    }

    @Test func run_failingCommand_exits1AndShowsOutput() async throws {
        let folder = try TemporaryDirectory()
        try folder.write(
            "commands.json",
            #"{"version": 1, "commands": [{"id": "a", "run": "echo broken; exit 2"}, {"id": "b", "dependencies": ["a"], "run": "true"}]}"#)
        let result = try await StartupBinary.run(["run"], in: folder.path)
        #expect(result.status == 1)
        #expect(result.output.contains("│ broken"))
        #expect(result.output.contains("- b"))
    }

    @Test func invalidManifest_exits65_missing66_usage64() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("bad.json", #"{"version": 1, "commands": [{"id": "a", "dependencies": ["a"]}]}"#)
        let invalid = try await StartupBinary.run(["run", "-f", "bad.json"], in: folder.path)
        #expect(invalid.status == 65)
        #expect(invalid.error.contains(#"bad.json:1:58: commands[0] ("a").dependencies[0]: "a" cannot depend on itself"#))
        #expect(invalid.output.isEmpty)
        #expect(try await StartupBinary.run(["plan", "-f", "missing.json"], in: folder.path).status == 66)
        let usage = try await StartupBinary.run(["plna"], in: folder.path)
        #expect(usage.status == 64)
        #expect(usage.error.contains(#"(did you mean "plan"?)"#))
    }

    @Test(.timeLimit(.minutes(2)))
    func interrupt_exits130_killsChildren_writesTrace() async throws {
        let folder = try TemporaryDirectory()
        try folder.write(
            "commands.json",
            """
            {"version": 1, "commands": [
              {"id": "quick", "run": "true", "stop": "echo stopped > quick-stopped"},
              {"id": "server", "dependencies": ["quick"], "run": "sh -c 'sleep 60 & echo $$ $! > ready; wait'",
               "stop": "touch server-stopped"}
            ]}
            """)
        try LineReader.makeFIFO(folder.file("ready"))
        let running = try StartupBinary.start(["run", "--trace", "--grace-period", "200ms"], in: folder.path)
        let pids = await SpawnTestSupport.readPids(fromFIFO: folder.file("ready"))
        try #require(pids.count == 2)
        kill(running.pid, SIGINT)
        let result = await running.finish()
        #expect(result.status == 130)
        #expect(result.output.contains("Interrupted in "))
        #expect(result.output.contains("✓ quick"))
        for pid in pids {
            #expect(await ProcessExitWaiter.waitUntilGone(pid), "process \(pid) was left behind")
        }
        // Stop lines run for what succeeded (quick), not for what was cancelled (server).
        #expect(result.output.contains("Stopping in reverse dependency order:"))
        #expect(FileManager.default.fileExists(atPath: folder.file("quick-stopped")))
        #expect(!FileManager.default.fileExists(atPath: folder.file("server-stopped")))
        let trace = try Data(contentsOf: URL(fileURLWithPath: folder.file(".startup/trace.json")))
        #expect(try JSONSerialization.jsonObject(with: trace) is [String: Any])
    }
}
