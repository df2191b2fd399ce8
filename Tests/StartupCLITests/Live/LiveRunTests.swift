import StartupKit
import StartupManifest
import Testing

@testable import StartupCLI

/// The live model of a run: each input moves one command's row as `startup ps` shows it, and each change of state is
/// one event, in order.
@Suite struct LiveRunTests {
    static let manifest = Manifest(commands: [
        ManifestCommand(id: "build", run: "true"),
        ManifestCommand(id: "api", dependencies: ["build"], run: "serve", ready: ManifestReadiness(probe: .log("up"))),
    ])

    static func row(_ id: CommandID, of live: LiveRun) throws -> ControlRow {
        try #require(live.rows().first { $0.id == id })
    }

    @Test func aServicesLife_fromWaitingToStopped() async throws {
        let live = LiveRun(manifest: Self.manifest)
        var events = live.events().makeAsyncIterator()
        #expect(try Self.row("api", of: live).state == .waiting)

        live.observe(.commandStarted("api", attempt: 1, at: .zero))
        live.spawned("api", pid: 42)
        live.checked("api", "log probe passed")
        live.ready("api")
        var row = try Self.row("api", of: live)
        #expect(row.state == .ready && row.pid == 42 && row.readyMs != nil && row.lastCheck == "log probe passed")

        live.stopping("api")
        live.stopped("api")
        row = try Self.row("api", of: live)
        #expect(row.state == .stopped && row.pid == nil && row.lastCheck == nil, "a stopped service's last probe no longer holds")

        live.finish()
        var states: [String] = []
        while let event = await events.next() { states.append(event.state) }
        #expect(states == ["starting", "ready", "stopping", "stopped"], "one event a change of state")
    }

    @Test func aSpawnAnnouncedAfterTheProbePassed_leavesTheServiceReady_withItsPid() throws {
        let live = LiveRun(manifest: Self.manifest)
        live.restarting("api")
        live.ready("api")
        live.spawned("api", pid: 7)
        let row = try Self.row("api", of: live)
        #expect(row.state == .ready && row.pid == 7 && row.restarts == 1)
        live.stopping("api")
        live.stopped("api")
        #expect(try Self.row("api", of: live).state == .stopped, "the restart was over: this stop is a stop")
    }

    @Test func aRestartsStop_readsRestarting_notStopped() throws {
        let live = LiveRun(manifest: Self.manifest)
        live.ready("api")
        live.restarting("api")
        live.stopping("api")
        live.stopped("api")
        #expect(try Self.row("api", of: live).state == .restarting)
        live.spawned("api", pid: 9)
        #expect(try Self.row("api", of: live).state == .starting)
    }

    @Test func aOneShotCommandRunAgain_runsThenSucceedsOrFails() throws {
        let live = LiveRun(manifest: Self.manifest)
        live.observe(.commandFinished("build", status: .succeeded, attempts: 1, startOffset: .zero, at: .zero))
        #expect(try Self.row("build", of: live).state == .succeeded)
        live.runsAgain("build")
        #expect(try Self.row("build", of: live).state == .running)
        live.ranAgain("build", succeeded: false, why: "exit status 2")
        #expect(try Self.row("build", of: live).state == .failed)
    }
}
