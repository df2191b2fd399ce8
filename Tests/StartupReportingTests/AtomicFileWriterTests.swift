import Foundation
import Testing

@testable import StartupReporting

@Suite struct AtomicFileWriterTests {
    private let folder: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("atomic-writer-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    private func contents(_ path: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }

    @Test func writesTheText_makingMissingFolders_andLeavesNoTemporaryFile() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/a/b/report.json"
        try AtomicFileWriter.write("{\"é\": 1}\n", to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "{\"é\": 1}\n")
        #expect(try contents(folder + "/a/b") == ["report.json"])
    }

    @Test func replacesAnOldFileWhole() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/report.json"
        try String(repeating: "old ", count: 10_000).write(toFile: path, atomically: false, encoding: .utf8)
        try AtomicFileWriter.write("new", to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new")
        #expect(try contents(folder) == ["report.json"])
    }

    @Test func replacingAFileTwice_leavesTheNewestWhole_andNothingElse() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/report.json"
        try AtomicFileWriter.write(String(repeating: "first ", count: 10_000), to: path)
        try AtomicFileWriter.write("second", to: path)
        try AtomicFileWriter.write("third", to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "third")
        #expect(try contents(folder) == ["report.json"])
    }

    @Test func aSymbolicLinkInTheFilesPlace_isReplaced_andWhatItNamedIsLeftAlone() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "target".write(toFile: folder + "/target.json", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: folder + "/report.json", withDestinationPath: "target.json")
        try AtomicFileWriter.write("new", to: folder + "/report.json")
        let type = try FileManager.default.attributesOfItem(atPath: folder + "/report.json")[.type] as? FileAttributeType
        #expect(type == .typeRegular)
        #expect(try String(contentsOfFile: folder + "/report.json", encoding: .utf8) == "new")
        #expect(try String(contentsOfFile: folder + "/target.json", encoding: .utf8) == "target")
        #expect(try contents(folder) == ["report.json", "target.json"])
    }

    @Test func aFileWhereAFolderShouldBe_isNamed_andNothingIsLeft() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "".write(toFile: folder + "/blocker", atomically: false, encoding: .utf8)
        #expect(throws: FileWriteError(path: folder + "/blocker/sub/r.json", errorNumber: ENOTDIR, folder: folder + "/blocker")) {
            try AtomicFileWriter.write("x", to: folder + "/blocker/sub/r.json")
        }
        #expect(try contents(folder) == ["blocker"])
    }

    @Test func aFolderInTheFilesPlace_failsTheRename_andTheTemporaryFileIsRemoved() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/report.json/inside", withIntermediateDirectories: true)
        let error = #expect(throws: FileWriteError.self) { try AtomicFileWriter.write("x", to: folder + "/report.json") }
        #expect(error?.errorNumber == EISDIR)
        #expect(error?.description == "is a directory")
        #expect(try contents(folder) == ["report.json"])
    }

    @Test func aRelativePath_isRelativeToTheCurrentFolder() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // The temporary folder, reached from the current one by `..` up to the root: no chdir, which
        // would move every test running beside this one.
        let depth = FileManager.default.currentDirectoryPath.split(separator: "/").count
        let relative = String(repeating: "../", count: depth) + folder.dropFirst()
        try AtomicFileWriter.write("below", to: relative + "/made/below.json")
        #expect(try String(contentsOfFile: folder + "/made/below.json", encoding: .utf8) == "below")
        #expect(try contents(folder + "/made") == ["below.json"])
    }

    @Test func theMessageNamesTheFolderThatCouldNotBeMade() {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(
            FileWriteError(path: "out/r.json", errorNumber: ENOTDIR, folder: "out").description == "not a directory (making the folder out)"
        )
        #expect(FileWriteError(path: "r.json", errorNumber: EACCES).description == "permission denied")
    }

    @Test func aTrailingSlashOrDot_namesTheSameFile_andMakesNoFolderOfIt() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try AtomicFileWriter.write("one", to: folder + "/out/r.json/")
        try AtomicFileWriter.write("two", to: folder + "/out/./s.json/.")
        #expect(try String(contentsOfFile: folder + "/out/r.json", encoding: .utf8) == "one")
        #expect(try String(contentsOfFile: folder + "/out/s.json", encoding: .utf8) == "two")
        #expect(try contents(folder + "/out") == ["r.json", "s.json"])
        #expect(throws: FileWriteError(path: folder + "/out/..", errorNumber: EISDIR)) {
            try AtomicFileWriter.write("x", to: folder + "/out/..")
        }
    }

    @Test func aLongestFileName_fitsItsTemporaryFile() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let name = String(repeating: "é", count: 127) + "a"  // 255 bytes, the most a name may have
        try AtomicFileWriter.write("long", to: folder + "/" + name)
        #expect(try String(contentsOfFile: folder + "/" + name, encoding: .utf8) == "long")
        #expect(try contents(folder) == [name])
    }

    @Test func aDevice_isWrittenToInPlace_notReplaced() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try AtomicFileWriter.write("discarded", to: "/dev/null")
        let type = try FileManager.default.attributesOfItem(atPath: "/dev/null")[.type] as? FileAttributeType
        #expect(type == .typeCharacterSpecial)
    }

    @Test func aFIFONobodyReads_failsAtOnce_andIsLeftInPlace() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(mkfifo(folder + "/fifo", 0o600) == 0)
        #expect(throws: FileWriteError(path: folder + "/fifo", errorNumber: ENXIO)) {
            try AtomicFileWriter.write("x", to: folder + "/fifo")
        }
        let type = try FileManager.default.attributesOfItem(atPath: folder + "/fifo")[.type] as? FileAttributeType
        #expect(type != .typeRegular)
    }
}
