#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// With `--output stream`, commands write straight to `startup`'s standard output and error, beside `startup`'s own
/// lines. When one of them is a regular file opened without `O_APPEND` (`> file`), writers share one file offset,
/// and a command that copies with `copy_file_range` (coreutils `cat`) or `sendfile` does not keep it in step with
/// the others' writes: bytes are lost and overwritten. Append mode makes every write land at the end, and makes
/// `cat` fall back to reading and writing.
///
/// Append mode is set on the open file description, which the caller shares: set only when the file's offset is at
/// its end (where every write lands anyway, so nothing the caller sees changes), and the flags are put back as they
/// were when the run ends. A file written before its end (`1<> file`) is left alone, with a warning.
struct AppendingOutputFiles {
    /// The descriptors whose flags were changed, with the flags they had.
    private let changed: [(descriptor: Int32, flags: Int32)]
    /// One sentence per descriptor that is left unsafe, for a warning.
    let warnings: [String]

    /// Sets append mode on each of `descriptors` that is a regular file written at its end without it; a descriptor
    /// that shares its open file description with one before it is set with it.
    init(descriptors: [(descriptor: Int32, name: String)]) {
        var changed: [(descriptor: Int32, flags: Int32)] = []
        var warnings: [String] = []
        for (descriptor, name) in descriptors {
            var status = stat()
            guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
            let flags = fcntl(descriptor, F_GETFL)
            guard flags >= 0, flags & O_APPEND == 0 else { continue }
            let offset = lseek(descriptor, 0, SEEK_CUR)
            guard offset >= 0 else { continue }
            guard offset == status.st_size else {
                warnings.append(
                    "\(name) is a file written at byte \(offset) of \(status.st_size), before its end: with --output stream, "
                        + "a command that copies with copy_file_range (such as cat) may overwrite other output there; "
                        + "redirect it with > or >> instead")
                continue
            }
            if fcntl(descriptor, F_SETFL, flags | O_APPEND) == 0 { changed.append((descriptor, flags)) }
        }
        self.changed = changed
        self.warnings = warnings
    }

    /// Append mode for `startup`'s standard output and error, where streamed commands write.
    static func standardStreams() -> AppendingOutputFiles {
        AppendingOutputFiles(descriptors: [(STDOUT_FILENO, "standard output"), (STDERR_FILENO, "standard error")])
    }

    /// Puts the flags back as they were (in reverse order, so a shared description ends as it began). Safe to call
    /// more than once.
    func restore() {
        for (descriptor, flags) in changed.reversed() { _ = fcntl(descriptor, F_SETFL, flags) }
    }
}
