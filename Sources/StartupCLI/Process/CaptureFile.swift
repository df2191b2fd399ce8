import StartupKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An unlinked temporary file that collects a child's stdout+stderr; only its tail is read back.
struct CaptureFile: ~Copyable {
    /// Most bytes of output kept in a `ProcessOutcome`.
    static let tailLimit = 64 * 1024

    /// The open, close-on-exec file descriptor (the child gets it via dup2, which clears close-on-exec).
    let descriptor: Int32

    /// An empty capture file, from the process's pool (see `CaptureFilePool`).
    static func create() throws(SpawnFailure) -> CaptureFile {
        CaptureFile(descriptor: try CaptureFilePool.shared.take())
    }

    /// Creates a file in `$TMPDIR` (or `/tmp`) and returns its descriptor: on Linux (x86_64, arm64) an anonymous
    /// `O_TMPFILE` in one system call, elsewhere (or where the file system lacks it) with `mkstemp`, unlinked at once.
    static func makeDescriptor() throws(SpawnFailure) -> Int32 {
        var directory = getenv("TMPDIR").map { String(cString: $0) } ?? ""
        if directory.isEmpty { directory = "/tmp" }
        if let flags = Self.temporaryFileFlags {
            let anonymous = open(directory, flags, 0o600)
            if anonymous >= 0 { return anonymous }
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
        return fd
    }

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
        CaptureFilePool.shared.release(descriptor)
    }
}
