import StartupKit
import StartupPlatform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a file so that readers see the old content or the whole new one, never a half-written
/// file: the text goes to a new temporary file beside it, which then takes its place. The file
/// is not flushed to the disk (no `fsync`): a crash of the machine, not of the process, may lose the
/// new content, as it may for make's and ninja's files. A path naming a device or a FIFO
/// (`/dev/stdout`, `/dev/null`) is written to in place: renaming over it would replace it.
package enum AtomicFileWriter {
    /// Writes `text` to `path`, making missing parent folders. A trailing `/` or `.` component names
    /// the same file (`out/r.json/` is `out/r.json`), as it did when Foundation wrote these files.
    ///
    /// - Throws: ``FileWriteError`` when the folder cannot be made or the file written; the
    ///   temporary file is removed and the old file, if any, is left as it was.
    package static func write(_ text: String, to path: String) throws(FileWriteError) {
        let file = fileName(path)
        guard let name = file.split(separator: "/").last, name != ".." else { throw FileWriteError(path: path, errorNumber: EISDIR) }
        var text = text
        var status = stat()
        if stat(file, &status) == 0, status.st_mode & S_IFMT == S_IFCHR || status.st_mode & S_IFMT == S_IFIFO {
            return try writeInPlace(&text, to: file, reportedAs: path)
        }
        let folder = folder(of: file)
        var (descriptor, temporary) = createTemporary(named: String(name), in: folder)
        if descriptor < 0, errno == ENOENT || errno == ENOTDIR {
            try makeFolders(folder, for: path)
            (descriptor, temporary) = createTemporary(named: String(name), in: folder)
        }
        guard descriptor >= 0 else { throw FileWriteError(path: path, errorNumber: errno) }
        var failure = text.withUTF8 { FileOperations.writeAll($0, to: descriptor) }
        if close(descriptor) != 0, failure == 0 { failure = errno }
        if failure == 0 { failure = replace(file, with: temporary) }
        if failure != 0 {
            unlink(temporary)
            throw FileWriteError(path: path, errorNumber: failure)
        }
    }

    /// Writes to a device or FIFO that is there already, without creating or truncating anything. A FIFO
    /// nobody reads fails at once (`ENXIO`) rather than waiting for a reader.
    private static func writeInPlace(_ text: inout String, to file: String, reportedAs path: String) throws(FileWriteError) {
        let descriptor = open(file, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileWriteError(path: path, errorNumber: errno) }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        var failure = text.withUTF8 { FileOperations.writeAll($0, to: descriptor) }
        if close(descriptor) != 0, failure == 0 { failure = errno }
        if failure != 0 { throw FileWriteError(path: path, errorNumber: failure) }
    }

    /// `path` without empty and `.` components: `out//./r.json/` is `out/r.json`.
    private static func fileName(_ path: String) -> String {
        let joined = path.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
        return path.hasPrefix("/") ? "/" + joined : joined
    }

    /// A new file in `folder` for the file `name` (`.name.<random>.tmp`, the name cut so that it stays
    /// within a file name's 255 bytes), opened for writing, and its path; the descriptor is negative,
    /// with `errno` set, when none could be made.
    private static func createTemporary(named name: String, in folder: String) -> (Int32, String) {
        var stem = ""
        for character in name {
            guard stem.utf8.count + character.utf8.count <= 200 else { break }
            stem.append(character)
        }
        var temporary = ""
        for _ in 0..<8 {
            temporary = (folder == "/" ? "/" : folder + "/") + ".\(stem).\(UInt32.random(in: .min ... .max)).tmp"
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if descriptor >= 0 || errno != EEXIST { return (descriptor, temporary) }
        }
        return (-1, temporary)
    }

    /// Puts the written temporary file in `file`'s place; `0`, or the `errno` of the failure. An old regular file
    /// there is swapped with it (Linux `renameat2` with `RENAME_EXCHANGE`), then removed from the temporary name:
    /// readers see one whole file or the other all the same, and an old file never written out to the disk yet (the
    /// last run's, a moment ago) costs next to nothing to remove. Renaming over
    /// the old file made ext4 allocate the new one's blocks and start writing them (its `auto_da_alloc` rule), and
    /// giving the new file its blocks beforehand (`fallocate`) made the old one's costly to free: either way the
    /// rename took about 0.7 ms at the end of every run, where this takes 0.05 ms. Anything else (no old file, a
    /// folder, a symbolic link, a file system that cannot swap) is renamed over, as elsewhere.
    private static func replace(_ file: String, with temporary: String) -> Int32 {
        #if os(Linux)
            var old = stat()
            if let renameat2 = CLibrary.renameat2, lstat(file, &old) == 0, old.st_mode & S_IFMT == S_IFREG,
                renameat2(atCurrentFolder, temporary, atCurrentFolder, file, renameExchange) == 0
            {
                // What was swapped out must be the regular file seen: a folder put there meanwhile is swapped back.
                var swapped = stat()
                guard lstat(temporary, &swapped) != 0 || swapped.st_mode & S_IFMT == S_IFREG else {
                    _ = renameat2(atCurrentFolder, temporary, atCurrentFolder, file, renameExchange)
                    return rename(temporary, file) == 0 ? 0 : errno
                }
                unlink(temporary)
                return 0
            }
        #endif
        return rename(temporary, file) == 0 ? 0 : errno
    }

    #if os(Linux)
        /// `AT_FDCWD`: paths relative to the current folder.
        private static let atCurrentFolder: Int32 = -100
        /// `RENAME_EXCHANGE`.
        private static let renameExchange: UInt32 = 2
    #endif

    /// Makes `folder` and its missing parents, as `mkdir -p` does.
    private static func makeFolders(_ folder: String, for path: String) throws(FileWriteError) {
        if let (made, code) = FileOperations.makeFolders(folder) { throw FileWriteError(path: path, errorNumber: code, folder: made) }
    }

    /// The folder part of `path`: `.` for a bare name, `/` for a file at the root.
    private static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = path[..<slash]
        return folder.allSatisfy { $0 == "/" } ? "/" : String(folder)
    }
}
