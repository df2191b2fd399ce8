import StartupKit
import StartupPlatform
import StartupSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file without a name that collects a child's stdout+stderr; only its tail is read back.
///
/// On Linux it is a memory file (`memfd_create`): making one costs no inode, where an `O_TMPFILE` on ext4 gets
/// slower to make once thousands have come and gone (the allocator skips recently freed inodes). While the child runs,
/// the engine frees all but the tail of a long output every so often (`trimToTail`), so the memory it holds stays
/// small. Elsewhere, or where neither works, it is an `O_TMPFILE` or `mkstemp` file in `$TMPDIR`.
struct CaptureFile: ~Copyable {
    /// Most bytes of output kept in a `ProcessOutcome`.
    static let tailLimit = 64 * 1024
    /// Output beyond this is trimmed to the tail while the child runs.
    static let trimThreshold = 1 << 20

    /// The open, close-on-exec file descriptor (the child gets it via dup2, which clears close-on-exec).
    let descriptor: Int32

    /// Creates an empty capture file: a spare one from the pool, else one made now.
    static func create() throws(SpawnFailure) -> CaptureFile {
        if let descriptor = CaptureFilePool.shared.take() ?? makeMemoryFile() { return CaptureFile(descriptor: descriptor) }
        var directory = getenv("TMPDIR").map { String(cString: $0) } ?? ""
        if directory.isEmpty { directory = "/tmp" }
        if let flags = Self.temporaryFileFlags {
            let anonymous = open(directory, flags, 0o600)
            if anonymous >= 0 { return CaptureFile(descriptor: anonymous) }
        }
        if !directory.hasSuffix("/") { directory += "/" }
        var template = Array((directory + "startup-output.XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            let code = errno
            throw SpawnFailure(
                errno: code,
                message: "cannot create output capture file in \(MessageQuoting.quoted(directory)): \(errnoDescription(code))")
        }
        // mkostemp is not visible through Swift's Glibc module; set FD_CLOEXEC right away. A spawn racing on another
        // thread in between is covered by closefrom in the spawn file actions (glibc 2.34+).
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return CaptureFile(descriptor: fd)
    }

    /// A new empty memory file, close-on-exec; `nil` where there are none (not Linux) or none could be made.
    static func makeMemoryFile() -> Int32? {
        guard let memfdCreate = SpawnExtensions.memfdCreate else { return nil }
        let descriptor = memfdCreate("startup-output", memfdCloseOnExec)
        return descriptor >= 0 ? descriptor : nil
    }

    /// `MFD_CLOEXEC`.
    private static let memfdCloseOnExec: UInt32 = 1

    /// Frees the bytes of the file at `descriptor` before its last `tailLimit` once it holds more than
    /// `trimThreshold`, keeping its size, so the child goes on writing at its offset and `readTail()` still finds
    /// the tail (the freed part reads as zeros, and is never read). Does nothing where holes cannot be punched.
    static func trimToTail(_ descriptor: Int32) {
        var info = stat()
        guard let fallocate = CLibrary.fallocate, fstat(descriptor, &info) == 0, Int(info.st_size) > trimThreshold else {
            return
        }
        let pageSize = 4_096
        let freed = (Int(info.st_size) - tailLimit) / pageSize * pageSize
        _ = fallocate(descriptor, punchHole | keepSize, 0, Int64(freed))
    }

    /// `FALLOC_FL_PUNCH_HOLE` and `FALLOC_FL_KEEP_SIZE`.
    private static let punchHole: Int32 = 0x02
    private static let keepSize: Int32 = 0x01

    /// `O_TMPFILE | O_RDWR | O_CLOEXEC`, or `nil` where `O_TMPFILE` is not known. `O_TMPFILE` is `__O_TMPFILE |
    /// O_DIRECTORY`, and `O_DIRECTORY` differs between architectures (neither is in the Glibc module).
    #if os(Linux) && arch(x86_64)
        private static let temporaryFileFlags: Int32? = 0o20_000_000 | 0o200_000 | O_RDWR | O_CLOEXEC
    #elseif os(Linux) && arch(arm64)
        private static let temporaryFileFlags: Int32? = 0o20_000_000 | 0o40_000 | O_RDWR | O_CLOEXEC
    #else
        private static let temporaryFileFlags: Int32? = nil
    #endif

    /// Reads the last `tailLimit` bytes written so far; `truncated` tells whether earlier bytes were dropped.
    func readTail() -> (bytes: [UInt8], truncated: Bool) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return ([], false) }
        let size = Int(info.st_size)
        let start = max(0, size - Self.tailLimit)
        let count = size - start
        guard count > 0 else { return ([], false) }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + filled, count - filled, off_t(start + filled))
            }
            if n > 0 {
                filled += n
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        if filled < count { bytes.removeSubrange(filled...) }
        return (bytes, start > 0)
    }

    deinit {
        CaptureFilePool.shared.retire(descriptor)
    }
}
