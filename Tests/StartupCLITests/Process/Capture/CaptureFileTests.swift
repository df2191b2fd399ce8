import Foundation
import Testing

@testable import StartupCLI

/// The file that collects a command's output: a memory file on Linux, trimmed to its tail.
@Suite struct CaptureFileTests {
    #if os(Linux)
        /// A memory file costs no inode (`/proc` shows `/memfd:startup-output (deleted)`); the fallbacks would
        /// show a path in the temporary directory.
        @Test func onLinux_theCaptureFileIsAMemoryFile() throws {
            let file = try CaptureFile.create()
            let target = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(file.descriptor)")
            #expect(target.hasPrefix("/memfd:startup-output"), "not a memory file: \(target)")
        }

        /// Trimming frees what lies before the tail but keeps the size, so writes go on at their offset and the
        /// tail reads back whole, marked as cut.
        @Test func trimmingKeepsTheTailAndTheOffset() throws {
            let file = try CaptureFile.create()
            let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 64 * 1024)
            for _ in 0..<(CaptureFile.trimThreshold / chunk.count + 4) {
                #expect(chunk.withUnsafeBytes { write(file.descriptor, $0.baseAddress, $0.count) } == chunk.count)
            }
            CaptureFile.trimToTail(file.descriptor)
            var info = stat()
            #expect(fstat(file.descriptor, &info) == 0)
            let blocksBefore = info.st_blocks
            let end = Array("the end\n".utf8)
            #expect(end.withUnsafeBytes { write(file.descriptor, $0.baseAddress, $0.count) } == end.count)
            #expect(fstat(file.descriptor, &info) == 0)
            #expect(Int(info.st_size) == (CaptureFile.trimThreshold / chunk.count + 4) * chunk.count + end.count)
            #expect(Int(blocksBefore) * 512 <= CaptureFile.tailLimit + 2 * 4_096, "the bytes before the tail were not freed")
            let tail = file.readTail()
            #expect(tail.truncated)
            #expect(tail.bytes.count == CaptureFile.tailLimit)
            #expect(tail.bytes.suffix(end.count).elementsEqual(end))
            #expect(tail.bytes.dropLast(end.count).allSatisfy { $0 == UInt8(ascii: "a") })
        }
    #endif
}
