import Foundation
import StartupKit
import StartupManifest
import Testing

@testable import StartupCLI

/// The watcher on a real folder (inotify on Linux): a write to a matching file is seen, so is a file in a folder
/// made after the start, and nothing under `.git/`, the log folder, an exclude or a non-matching name. Each wait is
/// on the event stream, bounded by the suite's time limit; nothing sleeps.
@Suite(.serialized, .timeLimit(.minutes(1))) struct WatcherTests {
    /// `text` written to `name` under `folder` in place (opened, written, closed: no rename).
    private func write(_ name: String, in folder: TemporaryDirectory, _ text: String = "x") throws {
        let url = URL(fileURLWithPath: folder.file(name))
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// The next reload the watcher asks for.
    private func nextReload(_ iterator: inout AsyncStream<Watcher.Event>.Iterator) async -> (CommandID, ReloadBatch)? {
        while let event = await iterator.next() {
            if case .reload(let id, let batch) = event { return (id, batch) }
        }
        return nil
    }

    @Test func aWriteToAMatchingFile_reloadsTheCommand_withThePath() async throws {
        let folder = try TemporaryDirectory()
        try write("src/app.py", in: folder, "print(1)")
        let watcher = try Watcher(
            folder: folder.path, commands: [("api", ManifestWatch(paths: ["src/**/*.py"], debounce: .milliseconds(20)))])
        await watcher.watching()
        var events = watcher.events.makeAsyncIterator()
        try write("src/app.py", in: folder, "print(2)")
        let reload = await nextReload(&events)
        #expect(reload?.0 == "api")
        #expect(reload?.1.paths == ["src/app.py"])
        await watcher.stop()
    }

    @Test func aFileInAFolderMadeAfterTheStart_isSeen() async throws {
        let folder = try TemporaryDirectory()
        try write("src/app.py", in: folder)
        let watcher = try Watcher(
            folder: folder.path, commands: [("api", ManifestWatch(paths: ["src/**/*.py"], debounce: .milliseconds(20)))])
        await watcher.watching()
        var events = watcher.events.makeAsyncIterator()
        try FileManager.default.createDirectory(atPath: folder.file("src/new/deeper"), withIntermediateDirectories: true)
        try write("src/new/deeper/handler.py", in: folder)
        var seen: Set<String> = []
        while !seen.contains("src/new/deeper/handler.py"), let reload = await nextReload(&events) {
            seen.formUnion(reload.1.paths)
            watcher.reloadEnded(reload.0)
        }
        #expect(seen.contains("src/new/deeper/handler.py"))
        // Later writes there are seen too: the new folder is watched.
        try write("src/new/deeper/handler.py", in: folder, "changed")
        #expect(await nextReload(&events)?.1.paths == ["src/new/deeper/handler.py"])
        await watcher.stop()
    }

    @Test func gitTheLogFolderExcludesAndOtherNames_reloadNothing() async throws {
        let folder = try TemporaryDirectory()
        for name in [".git/index", "logs/api.log", "src/test_app.py", "src/app.py", "README.md", ".startup/last-run.json"] {
            try write(name, in: folder)
        }
        let watcher = try Watcher(
            folder: folder.path,
            commands: [("api", ManifestWatch(paths: ["**", "!src/test_*"], debounce: .milliseconds(20)))],
            excludedPaths: [folder.file("logs")])
        await watcher.watching()
        var events = watcher.events.makeAsyncIterator()
        for name in [".git/index", ".git/refs/heads/main", "logs/api.log", "src/test_app.py", ".startup/last-run.json"] {
            try write(name, in: folder, "changed")
        }
        // Written last: the first reload holds it, and nothing written before it.
        try write("src/app.py", in: folder, "changed")
        #expect(await nextReload(&events)?.1.paths == ["src/app.py"])
        await watcher.stop()
    }

    @Test func twoCommands_eachGetTheirOwnChanges() async throws {
        let folder = try TemporaryDirectory()
        try write("api/main.go", in: folder)
        try write("web/index.ts", in: folder)
        let watcher = try Watcher(
            folder: folder.path,
            commands: [
                ("api", ManifestWatch(paths: ["api/**/*.go"], debounce: .milliseconds(20))),
                ("web", ManifestWatch(paths: ["web"], debounce: .milliseconds(20))),
            ])
        await watcher.watching()
        var events = watcher.events.makeAsyncIterator()
        try write("web/index.ts", in: folder, "changed")
        let first = await nextReload(&events)
        #expect(first?.0 == "web" && first?.1.paths == ["web/index.ts"])
        try write("api/main.go", in: folder, "changed")
        let second = await nextReload(&events)
        #expect(second?.0 == "api" && second?.1.paths == ["api/main.go"])
        await watcher.stop()
    }

    @Test func aFolderRenamed_isWatchedWhereItArrives_andItsRemovalConcernsTheCommand() async throws {
        let folder = try TemporaryDirectory()
        try write("src/old/handler.py", in: folder)
        let watcher = try Watcher(
            folder: folder.path, commands: [("api", ManifestWatch(paths: ["src/**/*.py"], debounce: .milliseconds(20)))])
        await watcher.watching()
        var events = watcher.events.makeAsyncIterator()
        try FileManager.default.moveItem(atPath: folder.file("src/old"), toPath: folder.file("src/new"))
        var seen: Set<String> = []
        while !seen.isSuperset(of: ["src/old/", "src/new/handler.py"]), let reload = await nextReload(&events) {
            seen.formUnion(reload.1.paths)
            watcher.reloadEnded(reload.0)
        }
        try write("src/new/handler.py", in: folder, "changed")
        #expect(await nextReload(&events)?.1.paths == ["src/new/handler.py"])
        await watcher.stop()
    }

    @Test func polling_seesAWrite_aNewFile_andARemoval() async throws {
        let folder = try TemporaryDirectory()
        try write("src/app.py", in: folder)
        try write("src/gone.py", in: folder)
        let source = FileChangeSource(
            root: folder.path, scope: WatchScope(rules: [try WatchRules(ManifestWatch(paths: ["src"]))], excludedPaths: []),
            pollInterval: .milliseconds(20), polls: true)
        await source.watching()
        var events = source.events.makeAsyncIterator()
        try write("src/app.py", in: folder, "a longer text")
        try write("src/new.py", in: folder)
        try FileManager.default.removeItem(atPath: folder.file("src/gone.py"))
        var seen: Set<WatchChange> = []
        let expected: Set<WatchChange> = [.path(WatchPath("src/app.py")), .path(WatchPath("src/new.py")), .path(WatchPath("src/gone.py"))]
        while !seen.isSuperset(of: expected), let event = await events.next() {
            if case .changes(let changes) = event { seen.formUnion(changes) }
        }
        #expect(seen.isSuperset(of: expected))
        source.stop()
        await source.ended()
    }

    #if os(Linux)
        @Test func runningOutOfWatches_saysHowToRaiseTheLimit() {
            let message = InotifyWatch.shortageMessage(missed: 3, first: WatchPath("src/deep"), limit: "8192")
            #expect(
                message
                    == #"out of inotify watches (fs.inotify.max_user_watches is 8192): "src/deep" and 2 more folders and what is under them are not watched, so changes there reload nothing; raise the limit with `sudo sysctl fs.inotify.max_user_watches=524288` (add it to /etc/sysctl.conf to keep it) and start the run again"#
            )
            #expect(Int(InotifyWatch.limit("max_user_watches")) != nil, "the limit is read from /proc")
        }
    #endif

    @Test func stopping_closesTheDescriptor_endsTheThread_andFinishesTheEvents() async throws {
        let folder = try TemporaryDirectory()
        let before = Self.inotifyDescriptors()
        let source = FileChangeSource(
            root: folder.path, scope: WatchScope(rules: [try WatchRules(ManifestWatch(paths: ["**"]))], excludedPaths: []))
        await source.watching()
        #if os(Linux)
            #expect(Self.inotifyDescriptors() == before + 1)
        #endif
        source.stop()
        source.stop()
        await source.ended()
        var events = source.events.makeAsyncIterator()
        while await events.next() != nil {}
        #expect(Self.inotifyDescriptors() == before)
    }

    /// How many inotify instances this process holds open.
    private static func inotifyDescriptors() -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == "anon_inode:inotify" }
            .count
    }
}
