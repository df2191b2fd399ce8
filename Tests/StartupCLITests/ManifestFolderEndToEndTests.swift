import Foundation
import Testing

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
}
