import Foundation
import Testing

/// Input a hostile or careless user gives the built `startup` binary: numbers at the edge of their
/// types, escape sequences in ids, huge values. Each is an error with a message, never a crash.
@Suite struct HostileInputEndToEndTests {
    /// A process killed by a trap exits 132 (SIGILL) or 133 (SIGTRAP) through the shell, or reports the
    /// signal as its status through `Process`.
    private func expectNoTrap(_ result: StartupBinary.Result, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(![4, 5, 132, 133].contains(result.status), "crashed: \(result.error)", sourceLocation: sourceLocation)
        #expect(!result.error.contains("Fatal error"), sourceLocation: sourceLocation)
    }

    @Test func plan_whenPriorityIsTheSmallestInteger_rejectsItWithItsPlace() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", #"{"version": 1, "commands": [{"id": "a", "priority": -9223372036854775808}]}"#)
        let result = try await StartupBinary.run(["plan"], in: folder.path)
        expectNoTrap(result)
        #expect(result.status == 65)
        #expect(
            result.error.contains(
                #"commands.json:1:53: commands[0] ("a").priority: expected "low", "normal", "high" or a whole number from -1000000 to 1000000, found the number -9223372036854775808"#
            ))
    }

    @Test(arguments: [["plan"], ["plan", "-j", "1"], ["plan", "--what-if", "drop=b"]])
    func plan_whenChainedEstimatesExceedTheLimit_rejectsEachOne(arguments: [String]) async throws {
        let folder = try TemporaryDirectory()
        try folder.write(
            "commands.json",
            """
            {"version": 1, "commands": [
              {"id": "a", "estimate": "9000000000s"},
              {"id": "b", "dependencies": ["a"], "estimate": "9000000000s"},
              {"id": "c", "dependencies": ["b"], "estimate": "9000000000s"}]}
            """)
        let result = try await StartupBinary.run(arguments, in: folder.path)
        expectNoTrap(result)
        #expect(result.status == 65)
        #expect(
            result.error.contains(
                #"commands.json:4:50: commands[2] ("c").estimate: invalid duration "9000000000s": too long; a duration is at most 8760h (365 days)"#
            ))
    }

    @Test(arguments: [["plan"], ["plan", "-j", "1"], ["plan", "--what-if", "scale=c5:1000"], ["plan", "--format", "json"]])
    func plan_whenTheLongestEstimatesChainPastInt64_saturatesInsteadOfTrapping(arguments: [String]) async throws {
        let folder = try TemporaryDirectory()
        // 400 chained years: far beyond the 292 years of Int64 nanoseconds.
        let commands = (0..<400).map { index in
            #"{"id": "c\#(index)", "estimate": "525600m""# + (index == 0 ? "}" : #", "dependencies": ["c\#(index - 1)"]}"#)
        }
        try folder.write("commands.json", #"{"version": 1, "commands": ["# + commands.joined(separator: ",") + "]}")
        let result = try await StartupBinary.run(arguments, in: folder.path)
        expectNoTrap(result)
        #expect(result.status == 0)
        #expect(result.error.isEmpty)
    }

    @Test func plan_whenWhatIfScalesBeyondTheLimit_isAUsageError() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", #"{"version": 1, "commands": [{"id": "database", "estimate": "1s"}]}"#)
        let result = try await StartupBinary.run(["plan", "--what-if", "scale=database:100000000000"], in: folder.path)
        expectNoTrap(result)
        #expect(result.status == 64)
        #expect(
            result.error.hasPrefix(
                #"error: --what-if: invalid factor "100000000000" in "database:100000000000"; write a number from 0 to 1000"#))
        let largest = try await StartupBinary.run(["plan", "--what-if", "scale=database:1000"], in: folder.path)
        #expect(largest.status == 0)
        #expect(largest.output.contains("Predicted wall time: 1s -> 16m40s"))
    }

    @Test func plan_whenAnIdHoldsAnEscapeSequence_showsItEscaped() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", #"{"version": 1, "commands": [{"id": "a\u001b[31mred", "dependsOn\u001b]0;x\u0007": []}]}"#)
        let result = try await StartupBinary.run(["plan"], in: folder.path)
        #expect(result.status == 65)
        #expect(!result.error.contains("\u{1B}") && !result.error.contains("\u{07}"))
        #expect(result.error.contains(#"commands[0] ("a\u001B[31mred").id: invalid command id "a\u001B[31mred""#))
        #expect(result.error.contains(#"unknown key "dependsOn\u001B]0;x\u0007"; allowed keys"#))
    }

    @Test func plan_whenAnIdIsTenMegabytes_cutsItWithItsLength() async throws {
        let folder = try TemporaryDirectory()
        let id = String(repeating: "x", count: 10 * 1024 * 1024)
        try folder.write("commands.json", #"{"version": 1, "commands": [{"id": ""# + id + #""}]}"#)
        let result = try await StartupBinary.run(["plan"], in: folder.path)
        #expect(result.status == 65)
        #expect(result.error.utf8.count < 2_000)
        #expect(result.error.contains(#"x…" (10485760 characters)"#))
    }

    @Test func plan_whenStandardOutputIsFull_exits74WithAMessage() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", #"{"version": 1, "commands": [{"id": "a", "estimate": "5ms"}]}"#)
        let result = try await ShellPipeline.run(#""$STARTUP" plan --format json > /dev/full"#, in: folder.path)
        #expect(result.status == 74)
        #expect(result.error == "error: cannot write standard output: No space left on device; what was printed is incomplete\n")
    }

    @Test(arguments: [0, 1, 2])
    func run_withACommandAfterDashDash_whenStandardOutputIsFull_passesItsStatusOnAndSaysTheOutputIsIncomplete(
        status: Int32
    ) async throws {
        // The command's status is passed on whatever it is: 0 and 1 were replaced by 74, 2 was kept.
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", #"{"version": 1, "commands": [{"id": "a", "run": "true"}]}"#)
        let result = try await ShellPipeline.run(#""$STARTUP" run --no-report -- sh -c 'exit \#(status)' > /dev/full"#, in: folder.path)
        #expect(result.status == status)
        #expect(result.error.contains("error: cannot write standard output: No space left on device; what was printed is incomplete\n"))
    }

    @Test(.timeLimit(.minutes(1)))
    func run_whenStandardOutputIsFullAndTheRunIsInterrupted_exits130AndSaysTheOutputIsIncomplete() async throws {
        // The interrupt's status stays, but the lost output is said: it was not, the exit 130 silent. SIGTERM, as
        // a shell without job control starts its background jobs with SIGINT ignored.
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", #"{"version": 1, "commands": [{"id": "a", "run": "echo a > started; exec sleep 100"}]}"#)
        let result = try await ShellPipeline.run(
            #"mkfifo started && { "$STARTUP" run --no-report > /dev/full & } && read -r _ < started && kill -TERM $! && wait $!"#,
            in: folder.path)
        #expect(result.status == 130)
        #expect(result.error.contains("error: cannot write standard output: No space left on device; what was printed is incomplete\n"))
    }

    @Test(arguments: [
        #"cat commands.json | "$STARTUP" plan -f -"#,
        #"cat commands.json | "$STARTUP" plan -f /dev/stdin"#,
        #"mkfifo pipe && (cat commands.json > pipe &) && "$STARTUP" plan -f pipe"#,
    ])
    func plan_readsTheManifestFromPipesFIFOsAndStandardInput(line: String) async throws {
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", #"{"version": 1, "commands": [{"id": "a", "estimate": "5ms"}]}"#)
        let result = try await ShellPipeline.run(line, in: folder.path)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("1 command in 1 wave"))
    }

    @Test func plan_whenStandardInputIsInvalid_namesItStdin() async throws {
        let folder = try TemporaryDirectory()
        let result = try await ShellPipeline.run(#"printf '{"version": 1, "commands": [}' | "$STARTUP" plan -f -"#, in: folder.path)
        #expect(result.status == 65)
        #expect(result.error.contains("<stdin>:1:29: invalid JSON"))
    }

    @Test func plan_whenTheManifestIsMissingOrAFolder_exits66() async throws {
        let folder = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: folder.file("folder"), withIntermediateDirectories: false)
        let missing = try await StartupBinary.run(["plan", "-f", "missing.json"], in: folder.path)
        #expect(missing.status == 66)
        #expect(missing.error == "error: cannot read manifest missing.json: no such file\n")
        let directory = try await StartupBinary.run(["plan", "-f", "folder"], in: folder.path)
        #expect(directory.status == 66)
        #expect(directory.error == "error: cannot read manifest folder: is a directory, not a manifest file\n")
    }

    @Test func plan_whenTheFileNameHoldsAnEscapeSequence_showsItEscaped() async throws {
        let folder = try TemporaryDirectory()
        let result = try await StartupBinary.run(["plan", "-f", "\u{1B}[2Jgone.json"], in: folder.path)
        #expect(result.status == 66)
        #expect(result.error == "error: cannot read manifest \\u001B[2Jgone.json: no such file\n")
    }

    @Test func run_groupedOutputSaysWhereItCuts_streamKeepsEveryByte() async throws {
        let folder = try TemporaryDirectory()
        try folder.write(
            "commands.json", #"{"version": 1, "commands": [{"id": "loud", "run": "head -c 70000 /dev/zero | tr '\\0' x; echo; echo end"}]}"#
        )
        let grouped = try await StartupBinary.run(["run", "--no-report"], in: folder.path)
        #expect(grouped.status == 0)
        #expect(
            grouped.output.contains(
                "[… earlier output cut here: grouped output keeps the last 64 KiB of each command; --output stream shows all of it]"))
        #expect(grouped.output.contains("end"))
        let stream = try await StartupBinary.run(["run", "--no-report", "--output", "stream"], in: folder.path)
        #expect(stream.status == 0)
        #expect(stream.output.contains(String(repeating: "x", count: 70_000) + "\nend\n"))
        #expect(!stream.output.contains("output cut"))
    }

    @Test func run_jsonWithStreamedOutput_keepsStandardOutputForTheJSON() async throws {
        let folder = try TemporaryDirectory()
        try folder.write(
            "commands.json",
            #"{"version": 1, "commands": [{"id": "talk", "run": "echo said-out; echo said-err >&2", "stop": "echo undone"}]}"#)
        // After `--`, the stack is stopped when CMD ends: the stop line runs.
        let result = try await StartupBinary.run(
            ["run", "--no-report", "--format", "json", "--output", "stream", "--", "true"], in: folder.path)
        #expect(result.status == 0)
        let report = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        #expect(report?["status"] as? String == "succeeded", "standard output is not the JSON alone: \(result.output)")
        for line in ["said-out", "said-err", "undone"] {
            #expect(result.error.contains(line + "\n"), "\(line) is missing from standard error: \(result.error)")
        }
    }

    @Test func run_withStandardOutputClosed_saysSoAndExits74() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", #"{"version": 1, "commands": [{"id": "a", "run": "true"}]}"#)
        // The shell closes standard output and execs the binary in its place.
        let result = try await StartupBinary.launch(
            "/bin/sh", ["-c", #"exec "$0" run --no-report >&-"#, StartupBinary.path], in: folder.path
        ).finish()
        #expect(result.status == 74)
        #expect(result.error.contains("cannot write standard output: Bad file descriptor"), "\(result.error)")
    }

    @Test func run_whenTheProgramNameHoldsATerminalReset_reportsItEscaped() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", #"{"version": 1, "commands": [{"id": "bad", "run": "\u001bcnope arg"}]}"#)
        let result = try await StartupBinary.run(["run"], in: folder.path)
        expectNoTrap(result)
        #expect(result.status == 1)
        #expect(result.output.contains(#"cannot run "\u001Bcnope": No such file or directory"#))
        #expect(!result.output.contains("\u{1B}") && !result.error.contains("\u{1B}"), "a raw escape character was printed")
    }
}
