import Foundation
import Testing

@testable import StartupCLI

/// Where a run's control socket is: beside the manifest, or, for a long path, in a folder of the user's own
/// under a stable name.
@Suite struct ControlSocketPathTests {
    @Test func aShortPath_isBesideTheManifest() {
        let path = ControlSocketPath.derived(manifestFolder: "/work/app", manifestName: "commands.json", environment: [:], userID: 1000)
        #expect(
            path == ControlSocketPath(socket: "/work/app/.startup/commands.json.sock", folder: "/work/app/.startup", isPerUserFolder: false)
        )
        #expect(path.lock == "/work/app/.startup/commands.json.sock.lock")
        let root = ControlSocketPath.derived(manifestFolder: "/", manifestName: "stack.json", environment: [:], userID: 1000)
        #expect(root.socket == "/.startup/stack.json.sock")
    }

    @Test func twoManifestsInOneFolder_haveTheirOwnSockets() {
        let first = ControlSocketPath.derived(manifestFolder: "/work/app", manifestName: "commands.json", environment: [:], userID: 1000)
        let second = ControlSocketPath.derived(manifestFolder: "/work/app", manifestName: "ci.json", environment: [:], userID: 1000)
        #expect(first.socket != second.socket)
    }

    static let deepFolder = "/home/someone/" + String(repeating: "a-rather-long-folder-name/", count: 4)

    @Test func aLongPath_goesToTheRuntimeFolder_underAStableName() {
        let environment = ["XDG_RUNTIME_DIR": "/run/user/1000"]
        let path = ControlSocketPath.derived(
            manifestFolder: Self.deepFolder, manifestName: "commands.json", environment: environment, userID: 1000)
        let hash = ControlSocketPath.fnv1a(Self.deepFolder + "/commands.json")
        let digits = String(hash, radix: 16)
        let name = "commands.json-" + String(repeating: "0", count: 16 - digits.count) + digits + ".sock"
        #expect(
            path == ControlSocketPath(socket: "/run/user/1000/startup/" + name, folder: "/run/user/1000/startup", isPerUserFolder: true))
        #expect(
            path
                == ControlSocketPath.derived(
                    manifestFolder: Self.deepFolder, manifestName: "commands.json", environment: environment, userID: 1000),
            "clients derive the same path")
        let other = ControlSocketPath.derived(
            manifestFolder: Self.deepFolder + "b", manifestName: "commands.json", environment: environment, userID: 1000)
        #expect(other.socket != path.socket)
    }

    @Test func aLongPath_withoutARuntimeFolder_goesToAPerUserFolderInTmp() {
        for environment in [[:], ["XDG_RUNTIME_DIR": "relative/dir"], ["XDG_RUNTIME_DIR": "/" + String(repeating: "r", count: 100)]] {
            let path = ControlSocketPath.derived(
                manifestFolder: Self.deepFolder, manifestName: "commands.json", environment: environment, userID: 1000)
            #expect(path.folder == "/tmp/startup-1000")
            #expect(path.isPerUserFolder)
            #expect(path.socket.hasPrefix("/tmp/startup-1000/commands.json-"))
        }
    }

    @Test func everyDerivedPath_fitsASocketAddress() {
        for length in stride(from: 1, through: 300, by: 7) {
            let folder = "/" + String(repeating: "f", count: length)
            let path = ControlSocketPath.derived(
                manifestFolder: folder, manifestName: String(repeating: "m", count: 60), environment: [:], userID: 4_294_967_294)
            #expect(path.socket.utf8.count <= ControlSocketPath.longestPath)
            #expect(path.folder.utf8.count + ControlSocketPath.bindSuffixLength <= ControlSocketPath.longestPath)
        }
    }

    @Test func theFallbackName_keepsAReadablePrefix_andEscapesTheRest() {
        let name = ControlSocketPath.fallbackName(forManifestAt: "/x/my stack (dev).json", named: "my stack (dev).json")
        #expect(name.hasPrefix("my_stack__dev_.json-"))
        #expect(name.hasSuffix(".sock"))
    }

    @Test func theHash_isFNV1a() {
        #expect(ControlSocketPath.fnv1a("") == 0xcbf2_9ce4_8422_2325)
        #expect(ControlSocketPath.fnv1a("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(ControlSocketPath.fnv1a("foobar") == 0x85944171f73967e8)
    }

    @Test func standardInput_usesTheCurrentDirectory() throws {
        let path = ControlSocketPath.forManifest("-", environment: [:])
        let folder = try #require(FilePaths.currentDirectory())
        #expect(path.socket == folder + "/.startup/stdin.sock" || path.isPerUserFolder)
    }

    @Test func aManifestWrittenTwoWays_findsTheSameRun() throws {
        let folder = try TemporaryDirectory()
        #expect(mkdir(folder.file("sub"), 0o755) == 0)
        let plain = ControlSocketPath.forManifest(folder.file("commands.json"), environment: [:])
        let roundabout = ControlSocketPath.forManifest(folder.path + "/./sub/../commands.json", environment: [:])
        #expect(plain.socket == roundabout.socket)
        #expect(plain.socket.hasSuffix("/.startup/commands.json.sock"))
    }

    @Test func aPerUserFolderOfAnotherShape_isRefused() async throws {
        let folder = try TemporaryDirectory()
        let shared = folder.file("shared")
        #expect(mkdir(shared, 0o777) == 0)
        #expect(chmod(shared, 0o777) == 0)
        let path = ControlSocketPath(socket: shared + "/x.sock", folder: shared, isPerUserFolder: true)
        #expect(ControlSocketFolder.problem(with: path)?.contains("is not a folder of your own with mode 0700") == true)
        await #expect(throws: ControlServerError.self) {
            try await ControlServer.start(at: path, manifest: "x.json", target: FakeControlTarget())
        }
        #expect(chmod(shared, 0o700) == 0)
        #expect(ControlSocketFolder.problem(with: path) == nil)
    }
}
