#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads the JSON documents of this package (manifests, saved run reports) from a file, a pipe, a
/// FIFO (`<(generate-manifest)`) or standard input (`-`), telling a missing, unreadable or
/// directory path apart from content that is wrong.
package enum DocumentFile {
    /// The path that means standard input.
    package static let standardInputPath = "-"

    /// The name messages give a document read from `path`: `<stdin>` for `-`, else the path.
    package static func displayName(_ path: String) -> String {
        path == standardInputPath ? "<stdin>" : path
    }

    /// The most a document may hold: 256 MiB, far more than a manifest of a million commands, and a
    /// bound for a device that never ends (`/dev/zero`).
    package static let sizeLimit = 256 << 20

    /// The document's bytes, read to the end with blocking reads, so a pipe whose writer is slow
    /// is waited for rather than refused.
    ///
    /// - Parameters:
    ///   - path: Absolute or relative to the current directory, or `-` for standard input.
    ///   - kind: What the file should be, for the message (`"a manifest file"`).
    ///   - limit: The most bytes it may hold.
    /// - Throws: ``DocumentError`` with code `.unreadable` naming the reason.
    package static func bytes(atPath path: String, kind: String, limit: Int = sizeLimit) throws(DocumentError) -> [UInt8] {
        if path == standardInputPath {
            return try read(STDIN_FILENO, path: path, limit: limit)
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw unreadable(path, reason(errno, kind: kind))
        }
        defer { close(descriptor) }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            throw unreadable(path, reason(EISDIR, kind: kind))
        }
        return try read(descriptor, path: path, limit: limit)
    }

    /// Everything `descriptor` holds, to its end, if that is at most `limit` bytes.
    private static func read(_ descriptor: Int32, path: String, limit: Int) throws(DocumentError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress!, $0.count) }
            if count > 0 {
                guard bytes.count + count <= limit else {
                    throw unreadable(path, "is larger than \(limit >> 20) MiB, the most a document may hold")
                }
                bytes += chunk[..<count]
            } else if count == 0 {
                return bytes
            } else if errno != EINTR {
                throw unreadable(path, reason(errno, kind: ""))
            }
        }
    }

    private static func reason(_ code: Int32, kind: String) -> String {
        switch code {
        case ENOENT: "no such file"
        case EACCES, EPERM: "permission denied"
        case EISDIR: "is a directory, not \(kind)"
        default: "cannot be read (\(String(cString: strerror(code))))"
        }
    }

    private static func unreadable(_ path: String, _ reason: String) -> DocumentError {
        DocumentError(
            code: .unreadable, file: displayName(path), problems: [DocumentProblem(line: nil, column: nil, path: "", message: reason)])
    }
}

/// `read(2)`, named apart from ``DocumentFile``'s own `read`.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
        Glibc.read(descriptor, buffer, count)
    #else
        Darwin.read(descriptor, buffer, count)
    #endif
}
