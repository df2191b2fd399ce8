#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The two file operations that saving a report and writing the CLI's logs share: writing every
/// byte of a buffer, and making a folder with its parents.
package enum FileOperations {
    /// Writes every byte, retrying short writes and interruptions: `0`, or the `errno` of the
    /// failure (`EIO` for a descriptor that takes nothing, which would otherwise be retried for ever).
    package static func writeAll(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: Int32) -> Int32 {
        var offset = 0
        while offset < bytes.count {
            let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written > 0 {
                offset += written
            } else if written == 0 {
                return EIO
            } else if errno != EINTR {
                return errno
            }
        }
        return 0
    }

    /// Makes `folder` and its missing parents, as `mkdir -p` does: `nil`, or the folder that could
    /// not be made and why (an `errno`; `ENOTDIR` when something else is in its place).
    package static func makeFolders(_ folder: String) -> (folder: String, code: Int32)? {
        var made = folder.hasPrefix("/") ? "/" : ""
        for component in folder.split(separator: "/") {
            made += (made.isEmpty || made == "/" ? "" : "/") + component
            guard mkdir(made, 0o777) != 0 else { continue }
            let code = errno
            var info = stat()
            guard code == EEXIST, stat(made, &info) == 0 else { return (made, code) }
            guard info.st_mode & S_IFMT == S_IFDIR else { return (made, ENOTDIR) }
        }
        return nil
    }
}

/// `write(2)`, named apart from the callers' own `write`s.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int {
    #if canImport(Glibc)
        Glibc.write(descriptor, bytes, count)
    #else
        Darwin.write(descriptor, bytes, count)
    #endif
}
