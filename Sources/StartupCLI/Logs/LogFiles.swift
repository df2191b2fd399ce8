import StartupKit
import StartupReporting
import StartupSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The log files of a run, as the log's writer thread (``LogWriter``) sees them: each opened for appending when it is
/// first written, kept open (at most ``openLimit`` at once), and given up at its first failure, which yields the one
/// warning it gets. Owned by that thread alone.
struct LogFiles {
    /// What is known of one command's log.
    private struct File {
        /// The open descriptor, or -1.
        var descriptor: Int32 = -1
        /// Whether what the log holds ends with a line break (or is empty): a header then needs none before it.
        var endsLine = true
        /// Whether the file has been opened before (its last byte read).
        var isKnown = false
        /// Whether writing it failed: nothing more is written to it.
        var hasFailed = false
    }

    /// The most logs kept open at once; opening one more closes them all (they are opened again as they are written).
    static let openLimit = 64

    /// The folder, made absolute when the run started.
    private let folder: String
    /// The folder as the user wrote it, for messages.
    private let shownFolder: String
    private var files: [CommandID: File] = [:]
    private var openCount = 0

    /// The logs in `folder` (as the user wrote it; relative to the current directory).
    init(folder: String) {
        self.folder = FilePaths.absolute(folder)
        var shown = folder
        while shown.count > 1, shown.hasSuffix("/") { shown.removeLast() }
        shownFolder = shown
    }

    /// The path of `id`'s log as messages show it: under the folder as the user wrote it.
    func shownPath(of id: CommandID) -> String {
        (shownFolder == "/" ? "/" : shownFolder + "/") + LogFileName.path(for: id)
    }

    /// Appends `header`'s line to `id`'s log, after a line break when the log does not end with one.
    ///
    /// - Returns: The warning to print, when the log has just failed.
    mutating func write(_ header: LogHeader, of id: CommandID) -> String? {
        let failure = withOpenFile(of: id) { file in
            var text = (file.endsLine ? "" : "\n") + header.line
            return text.withUTF8 { FileOperations.writeAll($0, to: file.descriptor) }
        }
        return failure.map { warning(id, errnoDescription($0)) }
    }

    /// Appends `bytes` to `id`'s log.
    ///
    /// - Returns: The warning to print, when the log has just failed.
    mutating func write(_ bytes: [UInt8], of id: CommandID) -> String? {
        guard let last = bytes.last else { return nil }
        let failure = withOpenFile(of: id) { file in
            let code = bytes.withUnsafeBufferPointer { FileOperations.writeAll($0, to: file.descriptor) }
            file.endsLine = last == UInt8(ascii: "\n")
            return code
        }
        return failure.map { warning(id, errnoDescription($0)) }
    }

    /// Gives up `id`'s log because its output could not be read (`reason`).
    ///
    /// - Returns: The warning to print, unless the log had failed already.
    mutating func fail(_ id: CommandID, reason: String) -> String? {
        guard files[id]?.hasFailed != true else { return nil }
        close(id)
        files[id, default: File()].hasFailed = true
        return warning(id, reason)
    }

    /// Closes every open log.
    mutating func closeAll() {
        for (id, file) in files where file.descriptor >= 0 { close(id) }
    }

    /// Runs `body` with `id`'s log open; a failure (to open it, or `body`'s errno) gives the log up.
    ///
    /// - Returns: The errno of the failure that gave the log up now; `nil` when all went well or it had been given
    ///   up before.
    private mutating func withOpenFile(of id: CommandID, _ body: (inout File) -> Int32) -> Int32? {
        var file = files[id] ?? File()
        guard !file.hasFailed else { return nil }
        if file.descriptor < 0 {
            if openCount >= Self.openLimit { closeAll() }
            let opened = open(id)
            guard opened >= 0 else {
                let code = errno
                file.hasFailed = true
                files[id] = file
                return code
            }
            file.descriptor = opened
            openCount += 1
            if !file.isKnown {
                file.endsLine = Self.endsLine(opened)
                file.isKnown = true
            }
        }
        let code = body(&file)
        files[id] = file
        guard code != 0 else { return nil }
        close(id)
        files[id]?.hasFailed = true
        return code
    }

    /// Opens `id`'s log for appending, making its folder (again, if it was removed) when it is missing: a
    /// descriptor, or -1 with `errno` set.
    private func open(_ id: CommandID) -> Int32 {
        let relative = LogFileName.path(for: id)
        let path = folder + "/" + relative
        let flags = O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC
        let descriptor = openFile(path, flags)
        guard descriptor < 0, errno == ENOENT else { return descriptor }
        _ = FileOperations.makeFolders(folder)
        var made = folder
        for component in relative.split(separator: "/").dropLast() {
            made += "/" + component
            _ = mkdir(made, 0o777)
        }
        return openFile(path, flags)
    }

    /// Closes `id`'s log if it is open.
    private mutating func close(_ id: CommandID) {
        guard let descriptor = files[id]?.descriptor, descriptor >= 0 else { return }
        _ = closeDescriptor(descriptor)
        files[id]?.descriptor = -1
        openCount -= 1
    }

    /// The warning of `id`'s log failing for `reason`.
    private func warning(_ id: CommandID, _ reason: String) -> String {
        "cannot write the log \(MessageQuoting.escaped(shownPath(of: id))): \(reason); "
            + "the rest of the output of \(MessageQuoting.quoted(id)) is not logged"
    }

    /// Whether the file at `descriptor` is empty or ends with a line break.
    private static func endsLine(_ descriptor: Int32) -> Bool {
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_size > 0 else { return true }
        var last: UInt8 = 0
        return pread(descriptor, &last, 1, info.st_size - 1) != 1 || last == UInt8(ascii: "\n")
    }
}

/// `open(2)` with mode 0666 (less the umask), named apart from `LogFiles.open(_:)`.
private func openFile(_ path: String, _ flags: Int32) -> Int32 {
    #if canImport(Glibc)
        Glibc.open(path, flags, 0o666)
    #else
        Darwin.open(path, flags, 0o666)
    #endif
}
