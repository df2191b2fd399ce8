import Foundation
import Testing

/// Limits said before they bite, through the built binary: an environment too large for the system says so with its
/// size, and a liveness check's interval is at least 100ms.
@Suite struct StatedLimitsEndToEndTests {
    @Test func run_whenTheEnvironmentIsTooLargeForTheSystem_saysSoWithItsSize() async throws {
        let folder = try TemporaryDirectory()
        // 1.5 MiB in one variable: past the system's limit for one exec (Linux: 128 KiB in one string; macOS:
        // 1 MiB in all).
        try folder.write("big.env", "BIG=" + String(repeating: "x", count: 3 << 19) + "\n")
        try folder.write(
            "commands.json", #"{"version": 1, "commands": [{"id": "greet", "run": "echo hello", "envFile": "big.env"}]}"#)
        let result = try await StartupBinary.run(["run", "--no-report"], in: folder.path)
        #expect(result.status == 1)
        let all = result.output + result.error
        #expect(all.contains(#"cannot run "echo": its environment is too large to start a program (environment 1.5 MiB in "#), "\(all)")
        #expect(all.contains(#"the largest "BIG" of 1.5 MiB"#), "\(all)")
        #expect(!all.contains("Argument list too long"), "\(all)")
    }

    @Test(arguments: [["plan"], ["run", "--no-report"]])
    func aLivenessIntervalBelow100ms_exits65_namingTheCommandAndTheKey(arguments: [String]) async throws {
        let folder = try TemporaryDirectory()
        try folder.write(
            "commands.json",
            """
            {"version": 1, "commands": [
              {"id": "api", "run": "touch api.ran; exec sleep 30", "ready": {"after": "0s"}, "alive": {"tcp": "127.0.0.1:1", "interval": "1ms"}}
            ]}
            """)
        let result = try await StartupBinary.run(arguments, in: folder.path)
        #expect(result.status == 65)
        #expect(
            result.error.contains(
                #"commands[0] ("api").alive.interval: a liveness check's interval must be from 100ms to 60m, found "1ms""#),
            "\(result.error)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("api.ran")))
    }
}
