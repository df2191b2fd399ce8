import Foundation
import StartupKit
import Testing

@testable import StartupCLI

/// The control server and the client subcommands through a real socket, against a faked run.
@Suite struct ControlServerTests {
    @Test func ps_printsATableOfTheRunsRows() async throws {
        let fixture = try await ControlFixture()
        let (code, output, error) = await fixture.startup(["ps"])
        #expect(code == .success)
        #expect(error == "")
        #expect(
            output == """
                ID        KIND     STATE      PID   SINCE  READY  RESTARTS  LAST CHECK
                database  service  ready      4242  3m03s  317ms  0         log matched
                migrate   command  succeeded  -     3m03s  -      0         -
                api       service  ready      4250  2.41s  212ms  1         http 200

                """)
    }

    @Test func psJSON_printsTheContractsKeys() async throws {
        let fixture = try await ControlFixture()
        let (code, output, _) = await fixture.startup(["ps", "--format", "json"])
        #expect(code == .success)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(Array(object.keys) == ["commands"])
        let rows = try #require(object["commands"] as? [[String: Any]])
        #expect(rows.map { $0["id"] as? String } == ["database", "migrate", "api"])
        #expect(Set(rows[0].keys) == ["id", "kind", "state", "pid", "sinceMs", "readyMs", "restarts", "lastCheck"])
        #expect(rows[1]["pid"] is NSNull && rows[1]["readyMs"] is NSNull && rows[1]["lastCheck"] is NSNull)
        #expect(rows[0]["pid"] as? Int == 4242 && rows[0]["readyMs"] as? Int == 317 && rows[2]["restarts"] as? Int == 1)
        #expect(output.contains("\"commands\": ["), "pretty, as the other JSON outputs")
    }

    @Test func restart_printsWhatTheRunSays_andExitsAsItSays() async throws {
        let fixture = try await ControlFixture()
        fixture.target.answer(saying: ["↻ api restarted: stopped 26ms, ready 212ms"])
        let (code, output, _) = await fixture.startup(["restart", "api"])
        #expect(code == .success)
        #expect(output == "↻ api restarted: stopped 26ms, ready 212ms\n")
        fixture.target.answer(saying: ["✗ api not ready: exited with status 1"], succeeds: false)
        let failed = await fixture.startup(["restart", "--cascade", "database", "api"])
        #expect(failed.code == .failure)
        #expect(failed.output == "✗ api not ready: exited with status 1\n")
        #expect(fixture.target.calls == [.restart(["api"], cascade: false), .restart(["database", "api"], cascade: true)])
    }

    @Test func stopStartAndDown_reachTheRun() async throws {
        let fixture = try await ControlFixture()
        fixture.target.answer(saying: ["✓ api  26ms  exited after SIGTERM"])
        #expect(await fixture.startup(["stop", "--cascade", "database"]).code == .success)
        #expect(await fixture.startup(["start", "database"]).code == .success)
        let down = await fixture.startup(["down"])
        #expect(down.code == .success)
        #expect(down.output == "✓ api  26ms  exited after SIGTERM\n")
        fixture.target.answer(saying: [], succeeds: false)
        #expect(await fixture.startup(["down"]).code == .failure)
        #expect(fixture.target.calls == [.stop(["database"], cascade: true), .start(["database"]), .down, .down])
    }

    @Test func anUnknownID_exits64WithASuggestion_andChangesNothing() async throws {
        let fixture = try await ControlFixture()
        let (code, output, error) = await fixture.startup(["restart", "apj"])
        #expect(code == .usage)
        #expect(output == "")
        #expect(
            error.hasPrefix("error: unknown command \"apj\" in the run of \(fixture.manifest) (did you mean \"api\"?)"), "\(error)")
        #expect(await fixture.startup(["logs", "databse"]).code == .usage)
        #expect(fixture.target.calls == [])
    }

    @Test func logs_prefixesEachLineWithItsID_asTheLiveStreamDoes() async throws {
        let fixture = try await ControlFixture()
        fixture.target.state.withLock {
            $0.kept = [
                ControlLogLine(id: "database", text: "ready to accept connections"), ControlLogLine(id: "api", text: "listening on 18080"),
                ControlLogLine(id: "api", text: "GET /health 200"),
            ]
        }
        let all = await fixture.startup(["logs"])
        #expect(all.code == .success)
        #expect(all.output == "database | ready to accept connections\napi      | listening on 18080\napi      | GET /health 200\n")
        let last = await fixture.startup(["logs", "-n", "1", "api"])
        #expect(last.output == "api | GET /health 200\n")
        let json = await fixture.startup(["logs", "--format", "json", "database"])
        #expect(json.output == #"{"id":"database","text":"ready to accept connections"}"# + "\n")
        #expect(fixture.target.calls == [.logs([], lines: nil), .logs(["api"], lines: 1), .logs(["database"], lines: nil)])
    }

    @Test func logsFollow_printsNewLinesUntilTheRunEnds() async throws {
        let fixture = try await ControlFixture()
        var subscribed = fixture.target.subscriptions.makeAsyncIterator()
        let client = Task { await fixture.startup(["logs", "-f"]) }
        _ = await subscribed.next()
        fixture.target.emit(ControlLogLine(id: "api", text: "GET /health 200"))
        fixture.target.end()
        let (code, output, error) = await client.value
        #expect(code == .success)
        #expect(error == "")
        #expect(output == "api      | GET /health 200\n", "padded to the widest id of the run")
        #expect(fixture.target.calls == [.followLogs([]), .logs([], lines: nil)])
    }

    @Test func events_printsOneJSONObjectALine() async throws {
        let fixture = try await ControlFixture()
        var subscribed = fixture.target.subscriptions.makeAsyncIterator()
        let client = Task { await fixture.startup(["events"]) }
        _ = await subscribed.next()
        fixture.target.emit(ControlEvent(atMs: 1_200, id: "api", state: "exited", fields: [ControlEventField("exitStatus", .integer(1))]))
        fixture.target.emit(
            ControlEvent(
                atMs: 5_000, id: nil, state: "reloadEnded",
                fields: [ControlEventField("reload", .integer(3)), ControlEventField("changed", .strings(["src/app.py"]))]))
        fixture.target.end()
        let (code, output, _) = await client.value
        #expect(code == .success)
        #expect(
            output == """
                {"atMs":1200,"id":"api","state":"exited","exitStatus":1}
                {"atMs":5000,"id":null,"state":"reloadEnded","reload":3,"changed":["src/app.py"]}

                """)
    }

    @Test func aClientThatLeavesAStream_endsItsSubscriptionOnly() async throws {
        let fixture = try await ControlFixture()
        var subscribed = fixture.target.subscriptions.makeAsyncIterator()
        let path = fixture.server.path
        let descriptor = try #require(try? UnixSocket.connect(to: path.socket).get())
        _ = UnixSocket.sendAll(descriptor, ControlRequest.events.line.utf8)
        _ = await subscribed.next()
        var ended = fixture.target.endedSubscriptions.makeAsyncIterator()
        close(descriptor)
        fixture.target.emit(ControlEvent(atMs: 1, id: "api", state: "ready"))
        #expect(await ended.next() != nil, "the subscription ended with its client")
        #expect(await fixture.startup(["ps"]).code == .success)
    }

    @Test func aClientThatLeavesDuringARestart_letsItFinish_andTheRunGoesOn() async throws {
        let fixture = try await ControlFixture()
        fixture.target.holdRestarts()
        fixture.target.answer(saying: ["↻ api restarted"])
        var began = fixture.target.subscriptions.makeAsyncIterator()
        let descriptor = try #require(try? UnixSocket.connect(to: fixture.server.path.socket).get())
        _ = UnixSocket.sendAll(descriptor, ControlRequest.restart(["api"], cascade: false).line.utf8)
        _ = await began.next()
        close(descriptor)
        fixture.target.release()
        await fixture.server.answersWritten(within: .seconds(60))
        #expect(fixture.target.calls == [.restart(["api"], cascade: false)])
        #expect(fixture.target.cancelledMoves == 0, "the restart ran to its end, not cancelled with its client")
        #expect(await fixture.startup(["ps"]).code == .success)
    }

    @Test func noRun_exits69() async throws {
        let folder = try TemporaryDirectory()
        let console = Console.capturing()
        let code = await StartupTool.main(["ps", "--file", folder.file("commands.json")], environment: [:], console: console)
        #expect(code == .unavailable)
        #expect(console.capturedError == "error: no run of \(folder.file("commands.json")) is up\n")
    }

    /// Requests the run cannot read, each on its own connection.
    static let badRequests: [(String, [UInt8], String)] = [
        ("garbage", Array("hello there\n".utf8), "not JSON"),
        ("not an object", Array("[1, 2]\n".utf8), "expected a JSON object"),
        ("no version", Array(#"{"op": "ps"}"#.utf8) + [10], "missing \"version\""),
        ("another version", Array(#"{"version": 2, "op": "ps"}"#.utf8) + [10], "unsupported protocol version 2"),
        ("unknown operation", Array(#"{"version": 1, "op": "restrat", "ids": ["api"]}"#.utf8) + [10], "did you mean \"restart\"?"),
        ("unknown id", Array(#"{"version": 1, "op": "stop", "ids": ["apii"]}"#.utf8) + [10], "did you mean \"api\"?"),
        ("wrong cascade", Array(#"{"version": 1, "op": "stop", "ids": ["api"], "cascade": "yes"}"#.utf8) + [10], "true or false"),
        ("a megabyte without a line feed", [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20), "at most 64 KiB"),
    ]

    @Test(arguments: badRequests.indices)
    func aRequestTheRunCannotRead_getsAnErrorAnswer_changesNothing_andPsAnswersNext(index: Int) async throws {
        let (_, bytes, message) = Self.badRequests[index]
        let fixture = try await ControlFixture()
        let answers = await fixture.raw(bytes)
        #expect(answers.count == 1)
        let answer = try #require(answers.first.flatMap { ControlAnswer.parse(Array($0.utf8)) })
        guard case .error(let text, exit: 64) = answer else {
            Issue.record("not an error answer: \(answers)")
            return
        }
        #expect(text.contains(message), "\(text)")
        #expect(fixture.target.calls == [])
        #expect(await fixture.startup(["ps"]).code == .success)
    }

    @Test func aClientThatClosesMidRequest_changesNothing() async throws {
        let fixture = try await ControlFixture()
        #expect(await fixture.raw(Array(#"{"version": 1, "op": "down""#.utf8), shutsDown: true) == [])
        #expect(fixture.target.calls == [])
        #expect(await fixture.startup(["ps"]).code == .success)
    }

    @Test func aSilentClient_holdsUpNoOne_andIsAnsweredAtItsDeadline() async throws {
        var configuration = ControlServer.Configuration()
        configuration.requestTimeout = .milliseconds(300)
        let fixture = try await ControlFixture(configuration: configuration)
        let silent = Task { await fixture.raw([]) }
        #expect(await fixture.startup(["ps"]).code == .success)
        let answers = await silent.value
        #expect(answers == [#"{"error":"no request within 300ms; send one JSON line","exit":64}"#])
        #expect(fixture.target.calls == [])
    }

    @Test func clientsBeyondTheLimit_areClosedAtOnce() async throws {
        var configuration = ControlServer.Configuration()
        configuration.maximumClients = 1
        let fixture = try await ControlFixture(configuration: configuration)
        var subscribed = fixture.target.subscriptions.makeAsyncIterator()
        let listener = Task { await fixture.startup(["events"]) }
        _ = await subscribed.next()
        let refused = await fixture.startup(["ps"])
        #expect(refused.code == .failure)
        #expect(refused.error == "error: the run of \(fixture.manifest) ended before it answered\n")
        fixture.target.end()
        #expect(await listener.value.code == .success)
        await fixture.server.answersWritten(within: .seconds(60))
        #expect(await fixture.startup(["ps"]).code == .success)
    }

    @Test func theProtocolTolerates_aClientThatShutsItsSendingDown() async throws {
        let fixture = try await ControlFixture()
        let answers = await fixture.raw(Array(ControlRequest.ps.line.utf8), shutsDown: true)
        #expect(answers.count == 4)
        #expect(answers.last == #"{"ok":true}"#)
    }

    @Test func theSocket_isTheOwnersOnly() async throws {
        let fixture = try await ControlFixture()
        var info = stat()
        #expect(lstat(fixture.server.path.socket, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFSOCK)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(fixture.server.path.socket == fixture.folder.path + "/.startup/commands.json.sock")
    }

    @Test func aSecondServer_isRefusedWithTheRunsPid() async throws {
        let fixture = try await ControlFixture()
        do {
            _ = try await ControlServer.start(at: fixture.server.path, manifest: "commands.json", target: FakeControlTarget())
            Issue.record("a second server started")
        } catch {
            #expect(error.code == .alreadyUp)
            #expect(error.pid == getpid())
            #expect(
                error.message == "a run of commands.json is already up (pid \(getpid())): use startup ps, startup restart, startup down")
        }
        #expect(await fixture.startup(["ps"]).code == .success)
    }

    @Test func aStaleSocket_isReplaced() async throws {
        let folder = try TemporaryDirectory()
        let manifest = folder.file("commands.json")
        let path = ControlSocketPath.forManifest(manifest, environment: [:])
        try FileManager.default.createDirectory(atPath: path.folder, withIntermediateDirectories: true)
        // A socket file nobody listens on, as a run killed with SIGKILL leaves.
        let stale = UnixSocket.make()
        #expect(UnixSocket.withAddress(path.socket) { bind(stale, $0, $1) } == 0)
        close(stale)
        #expect(FileManager.default.fileExists(atPath: path.socket))
        let server = try await ControlServer.start(manifest: manifest, target: FakeControlTarget(), environment: [:])
        defer { server.close() }
        let console = Console.capturing()
        #expect(await StartupTool.main(["ps", "-f", manifest], environment: [:], console: console) == .success)
    }

    @Test func close_removesTheSocket_andTheNextRunStarts() async throws {
        let fixture = try await ControlFixture()
        fixture.server.close()
        #expect(!FileManager.default.fileExists(atPath: fixture.server.path.socket))
        #expect(await fixture.startup(["ps"]).code == .unavailable)
        let next = try await ControlServer.start(manifest: fixture.manifest, target: FakeControlTarget(), environment: [:])
        defer { next.close() }
        #expect(await fixture.startup(["ps"]).code == .success)
    }

    @Test func close_leavesASocketThatIsNoLongerOurs() async throws {
        let fixture = try await ControlFixture()
        let socket = fixture.server.path.socket
        #expect(rename(socket, socket + ".moved") == 0)
        #expect(FileManager.default.createFile(atPath: socket, contents: Data()))
        fixture.server.close()
        #expect(FileManager.default.fileExists(atPath: socket))
    }
}
