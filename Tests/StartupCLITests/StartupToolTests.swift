import Foundation
import StartupKit
import StartupSupport
import Testing

@testable import StartupCLI

/// The CLI called in-process: every subcommand and option, output and exit code.
@Suite struct StartupToolTests {
    private let sample = """
        {"version": 1, "commands": [
          {"id": "configuration", "run": "true", "estimate": "40ms"},
          {"id": "database", "dependencies": ["configuration"], "run": "echo db-ready", "estimate": "120ms"},
          {"id": "cache", "dependencies": ["configuration"], "run": "true", "estimate": "30ms"},
          {"id": "ready", "dependencies": ["database", "cache"]}
        ]}
        """

    private func run(_ arguments: [String], environment: [String: String] = [:]) async -> (ExitCode, Console) {
        let console = Console.capturing(width: 80)
        let code = await StartupTool.main(arguments, environment: environment, console: console)
        return (code, console)
    }

    @Test func plan_text_showsWavesCriticalPathAndPrediction() async throws {
        let folder = try TemporaryDirectory()
        let file = try folder.write("commands.json", sample)
        let (code, console) = await run(["plan", "--file", file])
        #expect(code == .success)
        let text = console.capturedOutput
        #expect(text.contains("4 commands in 3 waves"))
        #expect(
            text.contains(
                "wave 2\n  * database         120ms  after configuration\n    cache             30ms  slack 90ms  after configuration"))
        #expect(text.contains("configuration 40ms -> database 120ms -> ready 0ms"))
        #expect(text.contains("Predicted wall time with unlimited jobs: 160ms (sum of estimates 190ms)"))
        let limited = await run(["plan", "--file", file, "-j", "1"])
        #expect(limited.1.capturedOutput.contains("Predicted wall time with 1 job: 190ms"))
    }

    @Test func plan_json_parsesWithDocumentedKeys() async throws {
        let folder = try TemporaryDirectory()
        let file = try folder.write("commands.json", sample)
        let (code, console) = await run(["plan", "-f", file, "--format", "json", "-j", "3"])
        #expect(code == .success)
        let json = try #require(JSONSerialization.jsonObject(with: Data(console.capturedOutput.utf8)) as? [String: Any])
        #expect(json["criticalPath"] as? [String] == ["configuration", "database", "ready"])
        #expect(json["predictedWallMs"] as? Double == 160)
        #expect(json["jobs"] as? Int == 3)
        #expect((json["commands"] as? [[String: Any]])?.count == 4)
    }

    @Test func graph_printsDotAndMermaid() async throws {
        let folder = try TemporaryDirectory()
        let file = try folder.write("commands.json", sample)
        let dot = await run(["graph", "-f", file])
        #expect(dot.0 == .success && dot.1.capturedOutput.hasPrefix("digraph startup {"))
        #expect(dot.1.capturedOutput.contains(#""configuration" -> "cache";"#))
        let mermaid = await run(["plan", "-f", file, "--format", "mermaid"])
        #expect(mermaid.1.capturedOutput.hasPrefix("flowchart LR"))
    }

    @Test func run_succeeds_printsProgressSummaryAndGroupedOutput() async throws {
        let folder = try TemporaryDirectory()
        let file = try folder.write("commands.json", sample)
        let (code, console) = await run(["run", "-f", file])
        #expect(code == .success)
        let text = console.capturedOutput
        for id in ["configuration", "database", "cache", "ready"] {
            #expect(text.contains("✓ \(id)"), "progress line of \(id)")
        }
        #expect(text.contains("    │ db-ready\n"))
        #expect(text.contains("Succeeded in "))
        #expect(text.contains("critical path "))
        #expect(console.capturedError.isEmpty)
    }

    @Test func run_whenCommandFails_skipsDependentsShowsOutputAndExits1() async throws {
        let folder = try TemporaryDirectory()
        let file = try folder.write(
            "commands.json",
            """
            {"version": 1, "commands": [
              {"id": "database", "run": "echo cannot connect >&2; exit 3"},
              {"id": "cache", "dependencies": ["database"], "run": "true"},
              {"id": "logging", "run": "true"}
            ]}
            """)
        let (code, console) = await run(["run", "-f", file, "--output", "quiet"])
        #expect(code == .failure)
        let text = console.capturedOutput
        #expect(text.contains("✗ database"))
        #expect(text.contains("exit status 3"))
        #expect(text.contains(#"- cache "#) && text.contains(#"dependency "database" did not succeed"#))
        #expect(text.contains("Failures:\n  ✗ database: exit status 3\n    │ cannot connect"))
        #expect(text.contains("✓ logging"))
    }

    /// The binary exits where a run ends (`exitProcess`), with the code the run would return, once
    /// its output and report are written.
    @Test(arguments: [(#"{"id": "ok", "run": "true"}"#, ExitCode.success), (#"{"id": "broken", "run": "exit 3"}"#, .failure)])
    func run_tellsTheProcessItsExitCode_afterEverythingIsWritten(command: String, expected: ExitCode) async throws {
        let folder = try TemporaryDirectory()
        let file = try folder.write("commands.json", #"{"version": 1, "commands": ["# + command + "]}")
        let console = Console.capturing()
        let told = Locked<[(ExitCode, output: String, reportSaved: Bool)]>([])
        let code = await StartupTool.main(["run", "-f", file], environment: [:], console: console) { code in
            let saved = FileManager.default.fileExists(atPath: folder.file(".startup/last-run.json"))
            told.withLock { $0.append((code, console.capturedOutput, saved)) }
        }
        #expect(code == expected)
        let calls = told.withLock { $0 }
        try #require(calls.count == 1)
        #expect(calls[0].0 == expected)
        #expect(calls[0].output == console.capturedOutput)
        #expect(calls[0].output.contains("Report saved to "))
        #expect(calls[0].reportSaved)
    }

    @Test func run_jsonFormat_printsOnlyTheReport() async throws {
        let folder = try TemporaryDirectory()
        let file = try folder.write("commands.json", sample)
        let (code, console) = await run(["run", "-f", file, "--format", "json", "--simulate"])
        #expect(code == .success)
        let json = try #require(JSONSerialization.jsonObject(with: Data(console.capturedOutput.utf8)) as? [String: Any])
        #expect(json["status"] as? String == "succeeded")
        let commands = try #require(json["commands"] as? [[String: Any]])
        #expect(commands.map { $0["status"] as? String } == Array(repeating: "succeeded", count: 4))
        #expect(Set(commands[0].keys).isSuperset(of: ["id", "status", "startMs", "endMs", "durationMs", "attempts", "slackMs"]))
    }

    @Test func run_trace_printsTimelineAndWritesTraceFile() async throws {
        let folder = try TemporaryDirectory()
        let file = try folder.write("commands.json", sample)
        let (code, console) = await run(["run", "-f", file, "--trace"])
        #expect(code == .success)
        let text = console.capturedOutput
        #expect(text.contains("Timeline (by start; * critical path"))
        let tracePath = folder.file(".startup/trace.json")
        #expect(text.contains("Trace written to \(tracePath)"))
        let trace = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: tracePath))) as? [String: Any]
        #expect((trace?["traceEvents"] as? [Any])?.count == 5)  // 4 commands and the process name
        let custom = folder.file("out/custom.json")
        _ = await run(["run", "-f", file, "--trace-file", custom])
        #expect(FileManager.default.fileExists(atPath: custom))
    }

    @Test func run_givesEachCommandItsIDEnvironmentAndDirectory() async throws {
        let folder = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: folder.file("sub"), withIntermediateDirectories: true)
        let file = try folder.write(
            "commands.json",
            """
            {"version": 1, "defaults": {"env": {"SHARED": "s"}}, "commands": [
              {"id": "probe", "run": "echo \\"$STARTUP_COMMAND_ID $SHARED $OWN $(basename $(pwd))\\"", "env": {"OWN": "o"}, "cwd": "sub"}
            ]}
            """)
        let (code, console) = await run(["run", "-f", file])
        #expect(code == .success)
        #expect(console.capturedOutput.contains("│ probe s o sub\n"))
    }

    @Test func run_whenCommandTimesOut_killsItAndReportsTimedOut() async throws {
        let folder = try TemporaryDirectory()
        let file = try folder.write(
            "commands.json",
            """
            {"version": 1, "commands": [{"id": "stuck", "run": "echo $$ > pid; sleep 60", "timeout": "300ms"}]}
            """)
        let (code, console) = await run(["run", "-f", file, "--grace-period", "100ms"])
        #expect(code == .failure)
        #expect(console.capturedOutput.contains("timed out after 300ms"))
        let pid = try #require(
            pid_t(String(contentsOfFile: folder.file("pid"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(await ProcessExitWaiter.waitUntilGone(pid))
    }

    @Test func run_retriesAFailingCommand() async throws {
        let folder = try TemporaryDirectory()
        let file = try folder.write(
            "commands.json",
            """
            {"version": 1, "commands": [{"id": "flaky", "run": "test -f marker || { touch marker; exit 1; }", "retries": 1, "cwd": "."}]}
            """)
        let (code, console) = await run(["run", "-f", file])
        #expect(code == .success)
        #expect(console.capturedOutput.contains("↻ flaky attempt 1 failed (exit status 1); retrying in 100ms"))
    }

    @Test(.timeLimit(.minutes(2)))
    func run_whenCancelled_reportsInterrupted() async throws {
        let folder = try TemporaryDirectory()
        let file = try folder.write(
            "commands.json",
            """
            {"version": 1, "commands": [{"id": "long", "run": "echo $$ > ready; sleep 60"}, {"id": "after", "dependencies": ["long"], "run": "true"}]}
            """)
        try LineReader.makeFIFO(folder.file("ready"))
        let console = Console.capturing()
        let task = Task { await StartupTool.main(["run", "-f", file, "--grace-period", "100ms"], environment: [:], console: console) }
        let pids = await SpawnTestSupport.readPids(fromFIFO: folder.file("ready"))
        task.cancel()
        #expect(await task.value == .interrupted)
        #expect(console.capturedOutput.contains("Interrupted in "))
        let pid = try #require(pids.first)
        #expect(await ProcessExitWaiter.waitUntilGone(pid))
    }

    @Test func manifestErrors_exit65WithEveryProblem_missingFileExits66() async throws {
        let folder = try TemporaryDirectory()
        let file = try folder.write(
            "commands.json",
            """
            {"version": 1, "commands": [{"id": "a", "dependsOn": ["b"]}, {"id": "c", "dependencies": ["cc"], "estimate": 5}]}
            """)
        let invalid = await run(["plan", "-f", file])
        #expect(invalid.0 == .invalidManifest)
        #expect(
            invalid.1.capturedError == """
                error: \(file) is not a valid manifest (3 problems):
                \(file):1:41: commands[0] ("a").dependsOn: unknown key "dependsOn" (did you mean "dependencies"?); allowed keys: id, summary, dependencies, after, run, estimate, budget, timeout, retries, optional, onDemand, priority, env, envFile, cwd, stop, stopTimeout, ready, restart, alive, watch
                \(file):1:91: commands[1] ("c").dependencies[0]: unknown command "cc"
                \(file):1:110: commands[1] ("c").estimate: a duration needs a unit: found the bare number 5; write "5ms" or "5s"

                """)
        let missing = await run(["run", "-f", folder.file("nope.json")])
        #expect(missing.0 == .manifestUnreadable)
        #expect(missing.1.capturedError == "error: cannot read manifest \(folder.file("nope.json")): no such file\n")
        let directory = await run(["plan", "-f", folder.path])
        #expect(directory.0 == .manifestUnreadable)
    }

    @Test func usageErrors_exit64() async {
        let (code, console) = await run(["run", "--jbos", "2"])
        #expect(code == .usage)
        #expect(console.capturedError == "error: unknown option --jbos (did you mean --jobs?)\nUsage: see startup run --help\n")
    }

    @Test func help_listsExitCodes_andVersionPrints() async {
        let help = await run(["run", "--help"])
        #expect(help.0 == .success)
        #expect(help.1.capturedOutput.contains("130  interrupted"))
        for subcommand in ["run", "plan"] {
            let text = await run([subcommand, "--help"]).1.capturedOutput
            #expect(text.contains("USAGE: startup \(subcommand) [--file <path>]") && text.contains("[ID...]\n"))
            #expect(text.contains("ID...                   \(subcommand == "run" ? "Run" : "Plan") only these commands and what they need"))
        }
        let version = await run(["--version"])
        #expect(version.1.capturedOutput == "startup \(HelpText.version)\n")
    }

    @Test(.timeLimit(.minutes(2)))
    func run_keepRunning_stopsInReverseDependencyOrderWhenInterrupted() async throws {
        let folder = try TemporaryDirectory()
        let file = try folder.write(
            "commands.json",
            """
            {"version": 1, "commands": [
              {"id": "database", "run": "true", "stop": "echo database >> stops"},
              {"id": "cache", "dependencies": ["database"], "run": "true", "stop": "echo cache >> stops"},
              {"id": "logging", "run": "true", "stop": "echo logging > logging-stopped"},
              {"id": "api", "dependencies": ["cache", "logging"], "run": "true", "stop": "echo api >> stops"}
            ]}
            """)
        let output = try await interruptWhenKeepingRunning(file, in: folder) {
            #expect(!FileManager.default.fileExists(atPath: folder.file("stops")), "nothing stops before the interrupt")
        }
        #expect(output.status == 130, "interrupted by a signal")
        #expect(try String(contentsOfFile: folder.file("stops"), encoding: .utf8) == "api\ncache\ndatabase\n")
        #expect(FileManager.default.fileExists(atPath: folder.file("logging-stopped")))
        #expect(output.text.contains("Stopped in "))
    }

    @Test(.timeLimit(.minutes(2)))
    func run_whenAStopLineFails_exits1AndShowsItsOutput() async throws {
        let folder = try TemporaryDirectory()
        let file = try folder.write(
            "commands.json",
            """
            {"version": 1, "commands": [{"id": "server", "run": "true", "stop": "echo cannot stop; exit 4"}]}
            """)
        let output = try await interruptWhenKeepingRunning(file, in: folder) {}
        #expect(output.status == 1)
        #expect(output.text.contains("✗ server"))
        #expect(output.text.contains("stop line failed: exit status 4"), "said as for a service's stop line")
        #expect(output.text.contains("    │ cannot stop"))
        #expect(output.text.contains("Stopping failed in "))
    }

    /// Runs the binary on `file` with `--keep-running`, reads its output as it prints it, runs `whileKept` once it
    /// keeps running, interrupts it (Ctrl-C) and returns its exit status and everything it printed.
    private func interruptWhenKeepingRunning(
        _ file: String, in folder: TemporaryDirectory, whileKept: () -> Void
    ) async throws -> (status: Int32, text: String) {
        let running = try StartupBinary.startWithPipedOutput(
            ["run", "-f", file, "--keep-running", "--no-report"],
            in: folder.path)
        defer { try? FileManager.default.removeItem(atPath: running.errorFile) }
        let kept = await LineReader.readLines(from: running.output, through: "Keeping running", closes: false)
        try #require(kept.contains("Keeping running"), "startup ended without keeping running: \(kept)")
        whileKept()
        kill(running.process.processIdentifier, SIGINT)
        let rest = await LineReader.readLines(from: running.output, through: nil, closes: true)
        return (await running.exit.value(), kept + rest)
    }
}
