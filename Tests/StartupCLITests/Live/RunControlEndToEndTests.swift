import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Working on a running stack through the built binary: `ps`, `restart` with and without `--cascade`, `stop` and
/// `start`, `logs`, `events`, `down`, one run per manifest, and a new run after `kill -9` of the last. The order of
/// starts and stops comes from the services' own log; no test waits on a clock.
@Suite(.timeLimit(.minutes(2))) struct RunControlEndToEndTests {
    @Test func ps_listsEachCommand_asRowsAndAsJSON() async throws {
        let stack = try await ControlledStack.start()
        let table = try await stack.client(["ps"])
        #expect(table.status == 0, "\(table.error)")
        for id in ["db", "api", "web"] {
            #expect(
                table.output.split(separator: "\n").contains { $0.hasPrefix(id) && $0.contains("service") && $0.contains("ready") },
                "\(table.output)")
        }
        let json = try await stack.client(["ps", "--format", "json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
        let rows = try #require(object?["commands"] as? [[String: Any]])
        #expect(rows.map { $0["id"] as? String } == ["db", "api", "web"])
        for row in rows {
            #expect(row["kind"] as? String == "service")
            #expect(row["state"] as? String == "ready")
            #expect((row["pid"] as? Int ?? 0) > 0)
            #expect(row["readyMs"] is Int && row["sinceMs"] is Int && row["restarts"] as? Int == 0)
            #expect(Set(row.keys) == ["id", "kind", "state", "pid", "sinceMs", "readyMs", "restarts", "lastCheck"])
        }
        let down = try await stack.down()
        #expect(down.client.status == 0 && down.status == 0, "\(down.client.error) \(down.output)")
    }

    @Test func clientCommands_withNoRunUp_exit69() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", ControlledStack.manifest())
        for arguments in [["ps"], ["restart", "api"], ["down"], ["logs"], ["events"]] {
            let result = try await StartupBinary.run(arguments, in: folder.path)
            #expect(result.status == 69, "\(arguments)")
            #expect(result.error.contains("no run of commands.json is up"), "\(arguments): \(result.error)")
        }
    }

    @Test func aSecondRunOfTheSameManifest_isRefused_beforeAnythingStarts() async throws {
        let stack = try await ControlledStack.start()
        let second = try await stack.client(["run", "--no-report"])
        #expect(second.status == 1)
        #expect(
            second.error.contains("a run of commands.json is already up (pid \(stack.running.process.processIdentifier))"),
            "\(second.error)")
        #expect(stack.events.filter { $0.hasSuffix("start") }.count == 3, "the second run started nothing")
        _ = try await stack.down()
    }

    @Test func restart_withoutCascade_stopsAndStartsItAlone_withOneSIGTERM() async throws {
        let stack = try await ControlledStack.start()
        let restart = try await stack.client(["restart", "api"])
        #expect(restart.status == 0, "\(restart.error)")
        #expect(restart.output.contains("api: stopped in") && restart.output.contains("ready in"), "\(restart.output)")
        #expect(stack.events == ["db start", "api start", "web start", "api term", "api start"])
        let unknown = try await stack.client(["restart", "apj"])
        #expect(unknown.status == 64)
        #expect(unknown.error.contains(#"did you mean "api"?"#), "\(unknown.error)")
        _ = try await stack.down()
    }

    @Test func restart_withCascade_restartsTheRunningDependents_afterIt_inOrder() async throws {
        let stack = try await ControlledStack.start()
        let restart = try await stack.client(["restart", "db", "--cascade"])
        #expect(restart.status == 0, "\(restart.error)")
        #expect(restart.output.contains("critical path: db"), "\(restart.output)")
        #expect(
            stack.events == ["db start", "api start", "web start", "db term", "db start", "api term", "api start", "web term", "web start"])
        _ = try await stack.down()
    }

    @Test func aServiceStoppedByHand_isNotRestarted_theRunGoesOn_andStartBringsItBack() async throws {
        let stack = try await ControlledStack.start(manifest: ControlledStack.manifest(dbRestart: #"{"delay": "10ms"}"#))
        let stop = try await stack.client(["stop", "db"])
        #expect(stop.status == 0, "\(stop.error)")
        let stopped = try await stack.client(["ps", "--format", "json"])
        #expect(
            stopped.output.contains(#""id":"db","kind":"service","state":"stopped""#) || stopped.output.contains(#""state": "stopped""#),
            "\(stopped.output)")
        let start = try await stack.client(["start", "db"])
        #expect(start.status == 0, "\(start.error)")
        #expect(stack.events == ["db start", "api start", "web start", "db term", "db start"])
        let down = try await stack.down()
        #expect(down.status == 0)
    }

    @Test func stop_withCascade_stopsTheDependentsFirst_inReverseOrder() async throws {
        let stack = try await ControlledStack.start()
        let stop = try await stack.client(["stop", "db", "--cascade"])
        #expect(stop.status == 0, "\(stop.error)")
        #expect(stack.events.suffix(3) == ["web term", "api term", "db term"])
        let down = try await stack.down()
        #expect(down.status == 0, "stopped by hand counts as stopped: \(down.output)")
    }

    @Test func logs_printsTheKeptOutput_prefixedByID() async throws {
        let stack = try await ControlledStack.start()
        let logs = try await stack.client(["logs", "api", "web"])
        #expect(logs.status == 0, "\(logs.error)")
        #expect(logs.output.contains("api") && logs.output.contains("| api ready"), "\(logs.output)")
        #expect(logs.output.contains("| web ready") && !logs.output.contains("db ready"), "\(logs.output)")
        let last = try await stack.client(["logs", "-n", "1", "db"])
        #expect(last.output.split(separator: "\n").count == 1, "\(last.output)")
        _ = try await stack.down()
    }

    @Test func down_stopsInReverseOrder_andBothExit0() async throws {
        let stack = try await ControlledStack.start()
        let down = try await stack.down()
        #expect(down.client.status == 0, "\(down.client.error)")
        #expect(down.status == 0, "a stop by request is not an interrupt: \(down.output)")
        #expect(stack.events.suffix(3) == ["web term", "api term", "db term"])
        #expect(down.client.output.contains("web") && down.client.output.contains("db"), "its shutdown lines: \(down.client.output)")
    }

    @Test func events_streamsStateChanges_asJSONLines_untilTheRunEnds() async throws {
        let stack = try await ControlledStack.start()
        let events = try StartupBinary.start(["events"], in: stack.folder.path)
        // `ps` answering after `events` connected is not proof it subscribed: the restart's own lines are awaited below.
        _ = try await stack.client(["ps"])
        let restart = try await stack.client(["restart", "web"])
        #expect(restart.status == 0)
        _ = try await stack.down()
        let streamed = await events.finish()
        #expect(streamed.status == 0, "\(streamed.error)")
        let lines = streamed.output.split(separator: "\n")
        let objects = try lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects.allSatisfy { $0["atMs"] is Int && $0["state"] is String }, "\(streamed.output)")
        let web = objects.filter { $0["id"] as? String == "web" }.compactMap { $0["state"] as? String }
        #expect(web.contains("restarting") && web.contains("ready") && web.last == "stopped", "\(web)")
    }

    @Test func afterKill9OfStartup_aNewRunOfTheSameManifestStarts() async throws {
        let stack = try await ControlledStack.start()
        kill(stack.running.process.processIdentifier, SIGKILL)
        _ = await stack.running.exit.value()
        let again = try StartupBinary.startWithPipedOutput(["run", "--no-report"], in: stack.folder.path)
        let output = await LineReader.readLines(from: again.output, through: "Services running", closes: false)
        #expect(output.contains("Services running"), "\(output)")
        let ps = try await stack.client(["ps"])
        #expect(ps.status == 0, "the new run answers: \(ps.error)")
        let down = try await stack.client(["down"])
        #expect(down.status == 0)
        _ = await LineReader.readLines(from: again.output, through: nil, closes: true)
        #expect(await again.exit.value() == 0)
    }

    @Test func down_duringTheStartUp_cancelsIt_asCtrlCWould_andTheRunExits0() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("svc.sh", ControlledStack.script)
        try folder.write(
            "commands.json",
            """
            {"version": 1, "commands": [
              {"id": "db", "run": "sh svc.sh db", "ready": {"log": "db ready"}},
              {"id": "hang", "run": "exec sleep 1000"}
            ]}
            """)
        let running = try StartupBinary.startWithPipedOutput(["run", "--no-report"], in: folder.path)
        _ = await LineReader.readLines(from: running.output, through: "db ready", closes: false)
        let down = try await StartupBinary.run(["down"], in: folder.path)
        #expect(down.status == 0, "\(down.error)")
        let rest = await LineReader.readLines(from: running.output, through: nil, closes: true)
        #expect(await running.exit.value() == 0, "a stop asked for is not an interrupt: \(rest)")
        #expect(rest.contains("hang") && rest.contains("cancelled"), "the start-up was cancelled: \(rest)")
    }

    @Test func down_inCIMode_passesOnTheCommandsStatus() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("svc.sh", ControlledStack.script)
        try folder.write("commands.json", ControlledStack.manifest())
        let running = try StartupBinary.startWithPipedOutput(
            ["run", "--no-report", "--", "sh", "-c", "trap 'exit 9' TERM; echo tests started; sleep 1000 & wait"], in: folder.path)
        _ = await LineReader.readLines(from: running.output, through: "tests started", closes: false)
        let down = try await StartupBinary.run(["down"], in: folder.path)
        #expect(down.status == 0, "\(down.error)")
        _ = await LineReader.readLines(from: running.output, through: nil, closes: true)
        #expect(await running.exit.value() == 9, "the tests were cut short: their status, not success")
    }
}
