import Foundation
import Testing

/// End-to-end: a run that may open too few files says so and exits 71 before it starts anything, where it used to
/// die of a trap in about half the runs (the system's Dispatch library stops the process when it cannot open a
/// file); a low soft limit under a higher hard one is raised, and the run goes on.
@Suite struct OpenFilesLimitEndToEndTests {
    /// The binary run by `sh` after `limit` (a `ulimit` command), in a folder whose command marks that it ran.
    private func run(after limit: String) async throws -> (result: StartupBinary.Result, ran: Bool) {
        let folder = try TemporaryDirectory()
        try folder.write(
            "commands.json",
            #"{"version": 1, "commands": [{"id": "a", "run": "touch ran"}, {"id": "b", "run": "true", "dependencies": ["a"]}]}"#)
        let result = try await StartupBinary.launch(
            "/bin/sh", ["-c", "\(limit) && exec \"$0\" run --no-report", StartupBinary.path], in: folder.path
        ).finish()
        return (result, FileManager.default.fileExists(atPath: folder.file("ran")))
    }

    @Test(.timeLimit(.minutes(2)))
    func tooFewOpenFiles_exit71_sayingSo_beforeAnythingStarts_everyTime() async throws {
        for attempt in 1...10 {
            let (result, ran) = try await run(after: "ulimit -n 19")
            #expect(result.status == 71, "attempt \(attempt): \(result.error)")
            #expect(result.error.contains("at most 19 files may be open (ulimit -n), and a run needs 64"), "\(result.error)")
            #expect(!ran, "attempt \(attempt): a command ran")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aLowSoftLimitUnderAHigherHardOne_isRaised_andTheRunGoesOn() async throws {
        let (result, ran) = try await run(after: "ulimit -S -n 19 && ulimit -H -n 256")
        #expect(result.status == 0, "\(result.error)")
        #expect(ran)
    }
}
