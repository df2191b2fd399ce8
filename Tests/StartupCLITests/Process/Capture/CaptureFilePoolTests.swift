import Testing

@testable import StartupCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Capture files made ahead and closed later, off the engine's thread.
@Suite struct CaptureFilePoolTests {
    #if os(Linux)
        /// The file a descriptor is open on (device and inode), or `nil` when it is closed. Compared rather than
        /// the number alone, which another test may reuse meanwhile.
        private func identity(_ descriptor: Int32) -> [UInt64]? {
            var info = stat()
            guard fstat(descriptor, &info) == 0 else { return nil }
            return [UInt64(info.st_dev), UInt64(info.st_ino), UInt64(info.st_size)]
        }

        @Test func sparesAreMadeOnlyOnceFilesAreAskedFor_andAreEmptyMemoryFiles() throws {
            let pool = CaptureFilePool()
            pool.replenish()
            #expect(pool.take() == nil, "spares were made before any file was asked for")
            pool.replenish()
            var taken: [Int32] = []
            while let descriptor = pool.take() { taken.append(descriptor) }
            defer { for descriptor in taken { _ = close(descriptor) } }
            #expect(!taken.isEmpty)
            #expect(Set(taken).count == taken.count)
            for descriptor in taken {
                #expect(identity(descriptor)?.last == 0, "a spare is not empty")
                #expect(fcntl(descriptor, F_GETFD) & FD_CLOEXEC != 0, "a spare would be inherited")
            }
        }

        @Test func aRetiredFileIsClosedOnTheNextReplenish_notBefore() throws {
            let pool = CaptureFilePool()
            let descriptor = try #require(CaptureFile.makeMemoryFile())
            let before = try #require(identity(descriptor))
            pool.retire(descriptor)
            #expect(identity(descriptor) == before, "closed before the replenish")
            pool.replenish()
            #expect(identity(descriptor) != before, "still open after the replenish")
        }

        @Test func aRetiredFileWithOutput_isClosedAtOnce_soItsMemoryIsFreed() throws {
            let pool = CaptureFilePool()
            let descriptor = try #require(CaptureFile.makeMemoryFile())
            #expect(write(descriptor, "output", 6) == 6)
            let before = try #require(identity(descriptor))
            pool.retire(descriptor)
            #expect(identity(descriptor) != before, "a file holding output was kept open")
        }

        @Test func closeRetired_closesTheEmptyOnes() throws {
            let pool = CaptureFilePool()
            let descriptor = try #require(CaptureFile.makeMemoryFile())
            let before = try #require(identity(descriptor))
            pool.retire(descriptor)
            pool.closeRetired()
            #expect(identity(descriptor) != before)
        }

        @Test func retiredFilesBeyondTheLimit_areClosedAtOnce() throws {
            let pool = CaptureFilePool()
            var retired: [(Int32, [UInt64])] = []
            for _ in 0..<65 {
                let descriptor = try #require(CaptureFile.makeMemoryFile())
                retired.append((descriptor, try #require(identity(descriptor))))
                pool.retire(descriptor)
            }
            let (last, lastIdentity) = try #require(retired.last)
            #expect(identity(last) != lastIdentity, "the 65th retired file was kept open")
            pool.replenish()
            for (descriptor, before) in retired { #expect(identity(descriptor) != before) }
        }
    #endif
}
