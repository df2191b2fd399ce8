import Foundation
import Testing

/// End-to-end: the built binary learns of its children's exits from SIGCHLD (one signalfd, then `waitid`), in
/// whatever order exits, launches and adopted orphans come, and also when it was started with SIGCHLD ignored.
@Suite struct ChildSignalTests {
    /// `env`, which can start a program with a signal ignored (coreutils 8.31+).
    private static let env = "/usr/bin/env"

    @Test(.timeLimit(.minutes(2)))
    func startedWithSIGCHLDIgnored_stillSeesHowEachCommandEnded() async throws {
        // An ignored SIGCHLD survives exec, and with it the kernel reaps children itself: startup reported
        // "lost track of process" for every command.
        let folder = try TemporaryDirectory()
        try folder.write(
            "commands.json",
            #"{"version": 1, "commands": [{"id": "fails", "run": "exit 3"}, {"id": "works", "run": "true"}]}"#)
        let result = try await StartupBinary.launch(
            Self.env, ["--ignore-signal=CHLD", StartupBinary.path, "run", "--no-report"], in: folder.path
        ).finish()
        try #require(!result.error.contains("ignore-signal"), "env cannot ignore a signal here: \(result.error)")
        #expect(result.status == 1)
        #expect(result.output.contains("✗ fails: exit status 3"))
        #expect(result.output.contains("1 succeeded, 1 failed"))
        #expect(!result.output.contains("lost track"))
    }

    @Test(.timeLimit(.minutes(2)))
    func aStormOfShortCommandsLeavingOrphans_runsEachOnce_losesNone() async throws {
        // Children exit before their launch reaches the engine, and orphans (adopted by startup) exit while
        // launches are in flight: an exit must never be taken for another's, nor lost.
        let count = 300
        let commands = (0..<count).map { index in
            let run = index % 3 == 0 ? "(true &); echo \(index) >> ran" : "echo \(index) >> ran"
            return #"{"id": "c\#(index)", "run": "\#(run)"}"#
        }
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", #"{"version": 1, "commands": ["# + commands.joined(separator: ",\n") + "]}")
        let result = try await StartupBinary.run(["run", "-j", "4", "--no-report"], in: folder.path)
        #expect(result.status == 0, "\(result.output)\(result.error)")
        #expect(result.output.contains("\(count) succeeded"))
        let ran = try String(contentsOfFile: folder.file("ran"), encoding: .utf8).split(separator: "\n").compactMap { Int($0) }
        #expect(ran.sorted() == Array(0..<count))
    }
}
