import Foundation
import Testing

@testable import StartupCLI

@Suite struct FilePathsTests {
    /// Paths where the text result must be what Foundation's URL gives (the CLI used URL before).
    private static let paths = [
        "commands.json", "./commands.json", "app/commands.json", "app//x/./commands.json", "/commands.json", "a/../commands.json",
        "../../../../x", "/..", "/", "", "-", "a/", "a/b/", "//a//b", "/tmp/./x/../y/.", "x/..", ".", "..", "app/.", "a\\b",
        "/dev/fd/63", "a b/c d",
    ]

    @Test(arguments: paths) func standardized_isURLsStandardizedPath(path: String) {
        let base = "/work/m"
        let url = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: base, isDirectory: true)).standardizedFileURL.path
        #expect(FilePaths.standardized(path, in: base) == url)
    }

    @Test func absolute_keepsParentsForTheKernel_andDropsDotsAndRepeatedSlashes() {
        #expect(FilePaths.absolute("a/../commands.json", in: "/m") == "/m/a/../commands.json")
        #expect(FilePaths.absolute("./x//y/.", in: "/m") == "/m/x/y")
        #expect(FilePaths.absolute("/abs/./f", in: "/m") == "/abs/f")
        #expect(FilePaths.absolute("", in: "/m") == "/m")
        #expect(FilePaths.absolute("x", in: nil) == "x")
        #expect(FilePaths.absolute("./", in: nil) == ".")
    }

    @Test func folder_isTheParentOfTheAbsolutePath() {
        #expect(FilePaths.folder(of: "commands.json", in: "/m") == "/m")
        #expect(FilePaths.folder(of: "app/commands.json", in: "/m") == "/m/app")
        #expect(FilePaths.folder(of: "/commands.json", in: "/m") == "/")
        #expect(FilePaths.folder(of: "/", in: "/m") == "/")
        #expect(FilePaths.folder(of: "link/../commands.json", in: "/m") == "/m/link/..")
    }

    @Test func tildeIsAFolderName_notTheHomeFolder() {
        // URL expands `~`; the kernel, which opens the manifest, does not.
        #expect(FilePaths.standardized("~/x", in: "/m") == "/m/~/x")
    }

    @Test func lastComponent_ignoresTrailingSlashes() {
        #expect(FilePaths.lastComponent("/a/b") == "b")
        #expect(FilePaths.lastComponent("a/b/") == "b")
        #expect(FilePaths.lastComponent("commands.json") == "commands.json")
        #expect(FilePaths.lastComponent("/") == "/")
    }

    @Test func currentDirectory_isTheProcesssOwn() {
        #expect(FilePaths.currentDirectory() == FileManager.default.currentDirectoryPath)
    }
}
