#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a file so that readers see the old content or the whole new one, never a half-written
/// file: the text goes to a new temporary file beside it, which is then renamed over it. The file
/// is not flushed to the disk (no `fsync`): a crash of the machine, not of the process, may lose the
/// new content, as it may for make's and ninja's files.
package enum AtomicFileWriter {
    /// Writes `text` to `path`, making missing parent folders.
    ///
    /// - Throws: ``FileWriteError`` when the folder cannot be made or the file written; the
    ///   temporary file is removed and the old file, if any, is left as it was.
    package static func write(_ text: String, to path: String) throws(FileWriteError) {
        let folder = folder(of: path)
        var (descriptor, temporary) = createTemporary(beside: path, in: folder)
        if descriptor < 0, errno == ENOENT || errno == ENOTDIR {
            try makeFolders(folder, for: path)
            (descriptor, temporary) = createTemporary(beside: path, in: folder)
        }
        guard descriptor >= 0 else { throw FileWriteError(path: path, code: errno) }
        var text = text
        var failure = text.withUTF8 { writeAll($0, to: descriptor) }
        if close(descriptor) != 0, failure == 0 { failure = errno }
        if failure == 0, rename(temporary, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            throw FileWriteError(path: path, code: failure)
        }
    }

    /// A new file beside `path` (`.name.<random>.tmp`), opened for writing, and its path; the
    /// descriptor is negative, with `errno` set, when none could be made.
    private static func createTemporary(beside path: String, in folder: String) -> (Int32, String) {
        let name = path.split(separator: "/").last.map(String.init) ?? "file"
        var temporary = ""
        for _ in 0..<8 {
            temporary = (folder == "/" ? "/" : folder + "/") + ".\(name).\(UInt32.random(in: .min ... .max)).tmp"
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if descriptor >= 0 || errno != EEXIST { return (descriptor, temporary) }
        }
        return (-1, temporary)
    }

    /// Writes every byte, retrying short writes and interruptions; `0`, or the `errno` of the failure.
    private static func writeAll(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: Int32) -> Int32 {
        var offset = 0
        while offset < bytes.count {
            let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written > 0 {
                offset += written
            } else if written < 0, errno != EINTR {
                return errno
            }
        }
        return 0
    }

    /// Makes `folder` and its missing parents, as `mkdir -p` does.
    private static func makeFolders(_ folder: String, for path: String) throws(FileWriteError) {
        var made = folder.hasPrefix("/") ? "/" : ""
        for component in folder.split(separator: "/") {
            made += (made.isEmpty || made == "/" ? "" : "/") + component
            guard mkdir(made, 0o777) != 0 else { continue }
            let code = errno
            var status = stat()
            guard code == EEXIST, stat(made, &status) == 0 else {
                throw FileWriteError(path: path, code: code, folder: made)
            }
            guard status.st_mode & S_IFMT == S_IFDIR else { throw FileWriteError(path: path, code: ENOTDIR, folder: made) }
        }
    }

    /// The folder part of `path`: `.` for a bare name, `/` for a file at the root.
    private static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = path[..<slash]
        return folder.allSatisfy { $0 == "/" } ? "/" : String(folder)
    }
}

/// `write(2)`, named apart from ``AtomicFileWriter``'s own `write`.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int {
    #if canImport(Glibc)
        Glibc.write(descriptor, bytes, count)
    #else
        Darwin.write(descriptor, bytes, count)
    #endif
}
