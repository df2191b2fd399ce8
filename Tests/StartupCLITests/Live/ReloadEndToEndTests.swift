import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reloads on a file change, through the built binary: a watched service is restarted, a watched build runs again
/// while its dependent keeps running and the dependent restarts after it, changes that match nothing reload nothing,
/// a failed build leaves the stack up until the next change mends it, a burst of changes is coalesced, and CI mode
/// never reloads. Each test waits for the run's own reload line, never for a time.
@Suite(.timeLimit(.minutes(2))) struct ReloadEndToEndTests {
    /// `build` (watching `src/`, its test files left out) that `api` needs, and `web` (watching `web/`).
    static let manifest = """
        {"version": 1, "commands": [
          {"id": "build", "run": "sh build.sh", "watch": {"paths": ["src/**/*.txt", "!src/**/skip_*"], "debounce": "50ms"}},
          {"id": "api", "dependencies": ["build"], "run": "sh svc.sh api", "ready": {"log": "api ready"}},
          {"id": "web", "run": "sh svc.sh web", "ready": {"log": "web ready"}, "watch": {"paths": ["web"], "debounce": "50ms"}}
        ]}
        """

    /// The build: its start and end in `events.log`; it fails while the file `broken` exists.
    static let build = """
        echo "build start" >> events.log
        if [ -f broken ]; then echo "syntax error in src/a.txt"; exit 2; fi
        echo "build done" >> events.log
        """

    /// The stack's folder, with `src/` and `web/`, and its run, up.
    static func start(_ arguments: [String] = []) async throws -> ControlledStack {
        let folder = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: folder.file("src/lib"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder.file("web"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder.file(".git"), withIntermediateDirectories: true)
        try folder.write("build.sh", build)
        return try await ControlledStack.start(in: folder, manifest: manifest, arguments: arguments)
    }

    /// The run's lines up to and including the first with `marker`.
    static func lines(of stack: ControlledStack, through marker: String) async -> String {
        await LineReader.readLines(from: stack.running.output, through: marker, closes: false)
    }

    @Test func aChangeToAWatchedService_restartsIt_alone() async throws {
        let stack = try await Self.start()
        #expect(Self.inotifyDescriptors(of: stack.running.process.processIdentifier) == 1, "a run that watches holds one")
        try stack.folder.write("web/index.txt", "hello")
        let line = await Self.lines(of: stack, through: "⟳ reload 1")
        #expect(line.contains("⟳ reload 1 (web/index.txt"), "\(line)")
        #expect(line.contains("web") && line.contains("ready"), "its critical path: \(line)")
        #expect(stack.events.suffix(2) == ["web term", "web start"])
        #expect(!stack.events.contains("api term"))
        _ = try await stack.down()
    }

    @Test func changesThatMatchNothing_reloadNothing() async throws {
        let stack = try await Self.start()
        try stack.folder.write("src/notes.md", "not a .txt")
        try stack.folder.write("src/lib/skip_this.txt", "excluded")
        try stack.folder.write(".git/HEAD", "ref: refs/heads/main")
        try stack.folder.write("src/lib/a.txt", "watched")
        let line = await Self.lines(of: stack, through: "⟳ reload")
        #expect(line.contains("⟳ reload 1 (src/lib/a.txt"), "only the matching change, in the first reload: \(line)")
        #expect(!line.contains("notes.md") && !line.contains("skip_this") && !line.contains("HEAD"))
        _ = try await stack.down()
    }

    @Test func aWatchedBuild_runsAgainWhileItsDependentRuns_thenTheDependentRestartsAfterIt() async throws {
        let stack = try await Self.start()
        try stack.folder.write("src/a.txt", "v2")
        let line = await Self.lines(of: stack, through: "⟳ reload 1")
        #expect(line.contains("build") && line.contains("-> api"), "the build, then the api: \(line)")
        let events = stack.events
        #expect(Array(events.suffix(4)) == ["build start", "build done", "api term", "api start"], "\(events)")
        _ = try await stack.down()
    }

    @Test func aFailedBuild_leavesTheStackUp_andTheNextChangeMendsIt() async throws {
        let stack = try await Self.start()
        try stack.folder.write("broken", "")
        try stack.folder.write("src/a.txt", "broken")
        let failed = await Self.lines(of: stack, through: "⟳ reload 1")
        #expect(failed.contains("failed"), "\(failed)")
        #expect(failed.contains("syntax error in src/a.txt"), "the failure with its output: \(failed)")
        #expect(!stack.events.contains("api term"), "the api keeps running the old build")
        let ps = try await stack.client(["ps", "--format", "json"])
        #expect(ps.status == 0)
        try FileManager.default.removeItem(atPath: stack.folder.file("broken"))
        try stack.folder.write("src/a.txt", "mended")
        let mended = await Self.lines(of: stack, through: "⟳ reload 2")
        #expect(!mended.split(separator: "\n").last!.contains("failed"), "\(mended)")
        #expect(stack.events.suffix(2) == ["api term", "api start"])
        let down = try await stack.down()
        #expect(down.status == 0, "a failed reload does not fail the run: \(down.output)")
    }

    @Test func twentyChangesInHalfASecond_giveAtMostTwoReloads() async throws {
        let stack = try await Self.start()
        // Twenty writes as fast as they go: well within half a second, and each within the debounce of the last.
        for round in 0..<20 { try stack.folder.write("web/index.txt", "\(round)") }
        let first = await Self.lines(of: stack, through: "⟳ reload 1")
        let down = try await stack.down()
        let reloads = (first + down.output).split(separator: "\n").filter { $0.contains("⟳ reload") }
        #expect((1...2).contains(reloads.count), "\(reloads)")
        #expect(stack.events.filter { $0 == "web start" }.count == 1 + reloads.count)
    }

    /// How many inotify descriptors the process `pid` holds: one while it watches (Linux).
    static func inotifyDescriptors(of pid: pid_t) -> Int {
        let folder = "/proc/\(pid)/fd"
        let links = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return links.filter { ((try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + $0)) ?? "").contains("inotify") }
            .count
    }

    @Test func ciMode_andNoWatch_neverWatch() async throws {
        let folder = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: folder.file("src"), withIntermediateDirectories: true)
        try folder.write("build.sh", Self.build)
        try folder.write("svc.sh", ControlledStack.script)
        try folder.write("commands.json", Self.manifest)
        // CI mode: the command after `--` starts once everything the run sets up is set up; it counts what its parent
        // watches.
        let ci = try await StartupBinary.run(
            ["run", "--no-report", "--", "sh", "-c", "echo \"inotify: $(ls -l /proc/$PPID/fd | grep -c inotify)\""], in: folder.path)
        #expect(ci.status == 0, "\(ci.error)")
        #expect(ci.output.contains("inotify: 0"), "\(ci.output)")
        // --no-watch: the run holds, and watches nothing.
        let running = try StartupBinary.startWithPipedOutput(["run", "--no-report", "--no-watch"], in: folder.path)
        _ = await LineReader.readLines(from: running.output, through: "Services running", closes: false)
        #expect(Self.inotifyDescriptors(of: running.process.processIdentifier) == 0)
        let down = try await StartupBinary.run(["down"], in: folder.path)
        #expect(down.status == 0)
        _ = await LineReader.readLines(from: running.output, through: nil, closes: true)
        #expect(await running.exit.value() == 0)
    }

    @Test func aServiceStoppedByHand_staysStopped_whateverChanges() async throws {
        let stack = try await Self.start()
        let stop = try await stack.client(["stop", "web"])
        #expect(stop.status == 0)
        try stack.folder.write("web/index.txt", "changed")
        let line = await Self.lines(of: stack, through: "⟳ reload 1")
        #expect(line.contains("web is stopped (startup start web starts it)"), "\(line)")
        #expect(stack.events.suffix(1) == ["web term"], "not started again: \(stack.events)")
        _ = try await stack.down()
    }
}
