import StartupKit
import Testing

@testable import StartupCLI

/// The names of the logs `--log-dir` writes: safe file names, reversible, never shared by two ids.
@Suite struct LogFileNameTests {
    @Test(arguments: [
        ("api", "api.log"),
        ("db/main", "db%2Fmain.log"),
        ("50%", "50%25.log"),
        (".env", "%2Eenv.log"),
        ("..", "%2E..log"),
        ("a.b", "a.b.log"),
        ("tab\there", "tab%09here.log"),
        ("nul\u{0}", "nul%00.log"),
        ("del\u{7F}", "del%7F.log"),
        ("café", "café.log"),
    ])
    func path_escapesWhatIsNotASafeFileName(id: String, expected: String) {
        #expect(LogFileName.path(for: CommandID(id)) == expected)
    }

    @Test func path_cutsALongIdIntoFolders_eachAFileNameOfAtMost240Bytes() {
        let id = CommandID(String(repeating: "é", count: 200))  // 400 bytes
        let path = LogFileName.path(for: id)
        let components = path.split(separator: "/")
        #expect(components.count == 2)
        #expect(components.allSatisfy { $0.utf8.count <= LogFileName.componentLimit + 4 })
        #expect(components[0].hasSuffix("%") && components[1].hasSuffix(".log"))
        #expect(components[0] == Substring(String(repeating: "é", count: 120) + "%"), "cut between characters")
    }

    @Test func path_escapesADotThatWouldStartAFolderOrFileAfterACut() {
        let id = CommandID(String(repeating: "a", count: 240) + "..x")
        #expect(LogFileName.path(for: id) == String(repeating: "a", count: 240) + "%/%2E.x.log")
    }

    @Test(arguments: [
        "api", "db/main", "50%", ".env", "..", "/", "%2F", "a%/b", "x.log", "\u{0}\u{1}\u{1F}",
        String(repeating: "é", count: 200), String(repeating: "/", count: 200), String(repeating: ".", count: 300),
        String(repeating: "a", count: 239) + "🙂🙂", String(repeating: "%", count: 200),
    ])
    func path_isReversible(id: String) {
        let path = LogFileName.path(for: CommandID(id))
        #expect(LogFileName.id(atPath: path) == CommandID(id))
        #expect(path.split(separator: "/").allSatisfy { !$0.hasPrefix(".") && $0.utf8.count <= 255 })
    }

    @Test func twoIds_neverShareALog() {
        let ids = [
            "a", "a.log", "a%", "a%25", "a/b", "a%2Fb", ".a", "%2Ea", String(repeating: "x", count: 236) + ".log",
            String(repeating: "x", count: 236) + ".log" + "y", String(repeating: "x", count: 240) + "y",
        ]
        let paths = ids.map { LogFileName.path(for: CommandID($0)) }
        #expect(Set(paths).count == ids.count)
        let folders = Set(
            paths.flatMap { path in
                let parts = path.split(separator: "/")
                return parts.indices.dropLast().map { parts[...$0].joined(separator: "/") }
            })
        #expect(folders.isDisjoint(with: paths), "no folder is another id's log")
    }

    @Test(arguments: ["api", "api.txt", "a%2f.log", "%2.log", "a/b.log", ".env.log", "%2Eenv%.log", "a%/.log", "caf%C3%A9.log"])
    func id_isNil_whereNoIdsLogIsCalledSo(path: String) {
        #expect(LogFileName.id(atPath: path) == nil)
    }
}
