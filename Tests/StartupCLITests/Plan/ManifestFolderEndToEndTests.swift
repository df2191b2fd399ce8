import Foundation
import Testing

@testable import StartupCLI

/// A manifest with no folder of its own (`-f <(generate-manifest)`, a pipe as `/dev/stdin`): its commands start in,
/// and `.startup/` goes to, the current directory, as for `-f -`; never `/dev/fd` or `/proc/<pid>/fd`.
@Suite struct ManifestFolderEndToEndTests {
    private let manifest = #"{"version": 1, "commands": [{"id": "mark", "run": "touch ran-here"}]}"#

    /// The run's result, the folder it ran in, and checks that everything landed in that folder.
    private func expectEverythingInTheCurrentDirectory(
        _ result: StartupBinary.Result, _ folder: TemporaryDirectory, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.status == 0, "stderr: \(result.error)", sourceLocation: sourceLocation)
        #expect(result.error.isEmpty, sourceLocation: sourceLocation)
        #expect(result.output.contains("Trace written to .startup/trace.json "), sourceLocation: sourceLocation)
        #expect(result.output.contains("Report saved to .startup/last-run.json "), sourceLocation: sourceLocation)
        for file in ["ran-here", ".startup/trace.json", ".startup/last-run.json"] {
            #expect(FileManager.default.fileExists(atPath: folder.file(file)), "no \(file)", sourceLocation: sourceLocation)
        }
    }

    @Test func run_withProcessSubstitution_usesTheCurrentDirectory() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", manifest)
        let result = try await StartupBinary.launch(
            "/bin/bash", ["-c", #"exec "$STARTUP" run --trace -f <(cat commands.json)"#], in: folder.path,
            environment: ["STARTUP": StartupBinary.path]
        ).finish()
        expectEverythingInTheCurrentDirectory(result, folder)
        let plan = try await StartupBinary.launch(
            "/bin/bash", ["-c", #"exec "$STARTUP" plan -f <(cat commands.json)"#], in: folder.path,
            environment: ["STARTUP": StartupBinary.path]
        ).finish()
        #expect(plan.status == 0)
        #expect(plan.output.contains("(.startup/last-run.json)"), "plan did not read the saved report: \(plan.output)")
    }

    @Test func run_withAPipeAsDevStdin_usesTheCurrentDirectory() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", manifest)
        let result = try await ShellPipeline.run(#"cat commands.json | "$STARTUP" run --trace -f /dev/stdin"#, in: folder.path)
        expectEverythingInTheCurrentDirectory(result, folder)
    }

    /// A manifest reached through a symbolic link is a file like any other: its commands start in, and
    /// `.startup/` goes to, the folder of the path as given (the link's), not the current directory.
    @Test func run_throughASymbolicLink_usesTheLinksFolder() async throws {
        let folder = try TemporaryDirectory()
        for name in ["real", "site"] {
            try FileManager.default.createDirectory(atPath: folder.file(name), withIntermediateDirectories: true)
        }
        try folder.write("real/commands.json", manifest)
        try FileManager.default.createSymbolicLink(atPath: folder.file("site/commands.json"), withDestinationPath: "../real/commands.json")
        let result = try await StartupBinary.start(["run", "-f", "site/commands.json"], in: folder.path).finish()
        #expect(result.status == 0, "stderr: \(result.error)")
        #expect(result.output.contains("Report saved to site/.startup/last-run.json "), "\(result.output)")
        for file in ["site/ran-here", "site/.startup/last-run.json"] {
            #expect(FileManager.default.fileExists(atPath: folder.file(file)), "no \(file)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("ran-here")), "ran in the current directory")
    }

    /// A path with `..` after a symbolic link to a folder is the folder the kernel reaches (`link/..` is the link
    /// target's parent): the manifest read, its commands' folder and `.startup/` agree on it.
    @Test func run_throughALinkAndDotDot_runsWhereTheManifestIs() async throws {
        let folder = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: folder.file("real/sub"), withIntermediateDirectories: true)
        try folder.write("real/commands.json", manifest)
        try FileManager.default.createSymbolicLink(atPath: folder.file("link"), withDestinationPath: "real/sub")
        let result = try await StartupBinary.start(["run", "-f", "link/../commands.json"], in: folder.path).finish()
        #expect(result.status == 0, "stderr: \(result.error)")
        for file in ["real/ran-here", "real/.startup/last-run.json"] {
            #expect(FileManager.default.fileExists(atPath: folder.file(file)), "no \(file)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("ran-here")), "ran in the current directory")
    }

    /// Only `/dev`, `/dev/fd` and `/proc` hold stand-ins for descriptors: a manifest in a folder below `/dev`
    /// (`/dev/shm`) has that folder.
    @Test func aManifestBelowDev_hasItsOwnFolder() throws {
        #expect(ManifestFolder.path(forManifest: "/dev/shm/app/commands.json") == "/dev/shm/app")
        #expect(ManifestFolder.path(forManifest: "/dev/stdin") == FileManager.default.currentDirectoryPath)
        #expect(ManifestFolder.path(forManifest: "/dev/fd/63") == FileManager.default.currentDirectoryPath)
        #expect(ManifestFolder.path(forManifest: "/proc/self/fd/0") == FileManager.default.currentDirectoryPath)
    }
}
