import Foundation
import StartupKit
import Testing

@testable import StartupCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the logs' writer thread does with each part: headers on lines of their own, output as it came, one warning
/// per log that fails; and the header's line, and the kept end of a command's output.
@Suite struct LogFilesTests {
    private let header = LogHeader(.attempt(1), time: timespec(tv_sec: 0, tv_nsec: 0))

    private func contents(_ path: String) throws -> [UInt8] {
        try [UInt8](#require(FileManager.default.contents(atPath: path)))
    }

    @Test func aHeader_afterOutputWithoutALineBreak_startsOnANewLine_andOutputIsKeptAsItCame() throws {
        let folder = try TemporaryDirectory()
        var files = LogFiles(folder: folder.path)
        #expect(files.write(header, of: "api") == nil)
        #expect(files.write([0x61, 0xFF, 0x0A, 0x62], of: "api") == nil)
        #expect(files.write(header, of: "api") == nil)
        #expect(files.write([0x63, 0x0A], of: "api") == nil)
        #expect(files.write(header, of: "api") == nil)
        files.closeAll()
        let line = Array(header.line.utf8)
        #expect(try contents(folder.file("api.log")) == line + [0x61, 0xFF, 0x0A, 0x62, 0x0A] + line + [0x63, 0x0A] + line)
    }

    @Test func aLogAppendedTo_thatEndsWithoutALineBreak_getsOneBeforeTheFirstHeader() throws {
        let folder = try TemporaryDirectory()
        try folder.write("api.log", "earlier")
        var files = LogFiles(folder: folder.path)
        #expect(files.write(header, of: "api") == nil)
        files.closeAll()
        #expect(try contents(folder.file("api.log")) == Array(("earlier\n" + header.line).utf8))
    }

    @Test func aLogThatCannotBeWritten_warnsOnce_namingIt_andOthersAreWritten() throws {
        let folder = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: folder.file("api.log"), withIntermediateDirectories: false)
        var files = LogFiles(folder: folder.path + "/")
        let warning = files.write(header, of: "api")
        #expect(
            warning
                == "cannot write the log \(folder.path)/api.log: Is a directory; the rest of the output of \"api\" is not logged"
        )
        #expect(files.write([0x61], of: "api") == nil)
        #expect(files.write(header, of: "api") == nil)
        #expect(files.fail("api", reason: "again") == nil)
        #expect(files.write([0x61], of: "web") == nil)
        files.closeAll()
        #expect(try contents(folder.file("web.log")) == [0x61])
    }

    @Test func aRemovedFolder_isMadeAgain_withTheFoldersOfALongId() throws {
        let folder = try TemporaryDirectory()
        let logs = folder.file("logs")
        var files = LogFiles(folder: logs)
        let long = CommandID(String(repeating: "x", count: 250))
        #expect(files.write([0x61], of: long) == nil)
        files.closeAll()
        #expect(try contents(logs + "/" + LogFileName.path(for: long)) == [0x61])
    }

    @Test func moreLogsThanMayBeOpenAtOnce_areAllWritten() throws {
        let folder = try TemporaryDirectory()
        var files = LogFiles(folder: folder.path)
        for round in 0..<2 {
            for index in 0..<(LogFiles.openLimit + 5) { #expect(files.write([UInt8(48 + round)], of: CommandID("c\(index)")) == nil) }
        }
        files.closeAll()
        #expect(try contents(folder.file("c0.log")) == [48, 49])
        #expect(try contents(folder.file("c\(LogFiles.openLimit + 4).log")) == [48, 49])
    }

    @Test func theHeader_saysWhichStart_andWhen_inLocalTimeWithItsOffset() {
        #expect(LogHeader(.attempt(2), time: timespec(tv_sec: 0, tv_nsec: 0)).line.hasPrefix("--- startup: attempt 2 at "))
        #expect(LogHeader(.restart(1), time: timespec(tv_sec: 0, tv_nsec: 0)).line.hasPrefix("--- startup: restart 1 at "))
        #expect(
            LogHeader.timestamp(year: 2025, month: 6, day: 1, hour: 14, minute: 3, second: 7, millisecond: 5, offset: 7_200)
                == "2025-06-01T14:03:07.005+02:00")
        #expect(
            LogHeader.timestamp(year: 2025, month: 12, day: 31, hour: 0, minute: 0, second: 0, millisecond: 999, offset: -34_200)
                == "2025-12-31T00:00:00.999-09:30")
        let line = LogHeader(.attempt(1)).line
        #expect(line.wholeMatch(of: /--- startup: attempt 1 at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d ---\n/) != nil, "\(line)")
    }

    @Test func theTail_keepsTheLastBytes_andSaysWhenEarlierOnesWereDropped() {
        var tail = OutputTail(limit: 4)
        tail.append([1, 2, 3])
        #expect(tail.bytes == [1, 2, 3] && !tail.isTruncated)
        tail.append([4])
        #expect(tail.bytes == [1, 2, 3, 4] && !tail.isTruncated)
        for byte in UInt8(5)...UInt8(20) { tail.append([byte]) }
        #expect(tail.bytes == [17, 18, 19, 20] && tail.isTruncated)
        tail.append(Array(repeating: 9, count: 100))
        #expect(tail.bytes == [9, 9, 9, 9])
    }
}
