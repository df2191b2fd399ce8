import Foundation
import StartupKit
import Testing

@testable import StartupCLI

/// The built `startup` binary as a client of a server in the test process, and servers racing for one manifest.
@Suite struct ControlEndToEndTests {
    @Test func theBinary_printsTheRunsRows_andExits69WhenNoRunIsUp() async throws {
        let fixture = try await ControlFixture()
        let up = try await StartupBinary.run(["ps", "--file", "commands.json"], in: fixture.folder.path)
        #expect(up.status == 0)
        #expect(up.output.hasPrefix("ID        KIND     STATE"))
        fixture.server.close()
        let down = try await StartupBinary.run(["ps"], in: fixture.folder.path)
        #expect(down.status == 69)
        #expect(down.error == "error: no run of commands.json is up\n")
    }

    @Test func anInterruptedEventsCommand_endsQuietly() async throws {
        let fixture = try await ControlFixture()
        var subscribed = fixture.target.subscriptions.makeAsyncIterator()
        let client = try StartupBinary.start(["events"], in: fixture.folder.path)
        _ = await subscribed.next()
        fixture.target.emit(ControlEvent(atMs: 7, id: "api", state: "ready"))
        kill(client.pid, SIGINT)
        let result = await client.finish()
        #expect(await client.exit.diedOfSignal())
        #expect(result.status == SIGINT)
        #expect(result.error == "")
        #expect(await fixture.startup(["ps"]).code == .success, "the run goes on")
    }

    @Test func serversStartingAtOnce_leaveExactlyOneUp() async throws {
        let folder = try TemporaryDirectory()
        let manifest = folder.file("commands.json")
        let outcomes = await withTaskGroup(of: ControlServer?.self) { group in
            for _ in 0..<8 {
                group.addTask { try? await ControlServer.start(manifest: manifest, target: FakeControlTarget(), environment: [:]) }
            }
            var servers: [ControlServer] = []
            for await server in group { if let server { servers.append(server) } }
            return servers
        }
        #expect(outcomes.count == 1)
        for server in outcomes { server.close() }
    }

    @Test func afterTheRunsStreamsEnd_everyAnswerIsWritten() async throws {
        let fixture = try await ControlFixture()
        var subscribed = fixture.target.subscriptions.makeAsyncIterator()
        let listener = Task { await fixture.startup(["events"]) }
        _ = await subscribed.next()
        #expect(await fixture.startup(["down"]).code == .success)
        fixture.server.close()
        fixture.target.end()
        await fixture.server.answersWritten(within: .seconds(60))
        #expect(await listener.value.code == .success)
    }
}

/// The bash completion script offers the ids of the run that is up to the client subcommands.
@Suite struct ControlCompletionTests {
    /// COMPREPLY for `words` (the last is being completed), from the sourced bash script.
    private func bashCompletions(_ words: [String], in folder: TemporaryDirectory) async throws -> [String] {
        let (replies, result) = try await BashCompletion.complete(words, in: folder)
        #expect(result.error == "")
        return replies
    }

    /// Against a real run, in a process of its own (a fake run in this test process answers as slowly as the other
    /// suites let its pool): the run's ids are its own, whatever the manifest says by now.
    @Test(.enabled(if: InstalledShell.path("bash") != nil, "bash is not installed: the bash script was not run"))
    func bashScript_completesTheRunsIDs_elseTheManifests() async throws {
        let stack = try await ControlledStack.start()
        try stack.folder.write(
            "commands.json", #"{"version": 1, "commands": [{"id": "api", "run": "true"}, {"id": "seed", "run": "true"}]}"#)
        try stack.folder.write("other.json", #"{"version": 1, "commands": [{"id": "search", "run": "true"}]}"#)
        #expect(try await bashCompletions(["startup", "restart", ""], in: stack.folder) == ["db", "api", "web"])
        #expect(try await bashCompletions(["startup", "logs", "-f", "w"], in: stack.folder) == ["web"], "-f follows, in logs")
        #expect(try await bashCompletions(["startup", "stop", "--file", "other.json", ""], in: stack.folder) == ["search"])
        #expect(try await bashCompletions(["startup", "run", ""], in: stack.folder) == ["api", "seed"], "run completes the manifest's")
        #expect(try await bashCompletions(["startup", "logs", "--f"], in: stack.folder) == ["--file", "--follow", "--format"])
        _ = try await stack.down()
    }
}
