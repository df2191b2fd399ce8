import StartupJSON

extension SavedRun {
    /// Reads a saved run report, such as the CLI's `.startup/last-run.json`.
    ///
    /// - Parameter path: The file's path, absolute or relative to the current directory.
    /// - Throws: ``ReportError`` with code `.unreadable` when the file is missing, a directory or
    ///   cannot be read, or `.invalid` with every problem found.
    public static func load(path: String) throws(ReportError) -> SavedRun {
        try decode(DocumentFile.bytes(atPath: path, kind: "a report file"), file: DocumentFile.displayName(path))
    }

    /// Reads run report bytes: the entry point of every report reader.
    ///
    /// Keys the reader does not know are ignored, so reports of later versions still read.
    ///
    /// - Parameters:
    ///   - bytes: The JSON text, UTF-8.
    ///   - file: The name used in error messages.
    /// - Throws: ``ReportError`` with code `.invalid` and every problem found, in document order.
    public static func decode(_ bytes: [UInt8], file: String = "report.json") throws(ReportError) -> SavedRun {
        try ReportDecoder.decode(bytes, file: file)
    }

    /// Writes the report, pretty-printed, so that readers see the old file or the whole new one,
    /// never a half-written file; missing parent folders are made.
    ///
    /// - Throws: ``FileWriteError`` when the folder cannot be made or the file written.
    public func save(to path: String) throws(FileWriteError) {
        try AtomicFileWriter.write(json().text(pretty: true) + "\n", to: path)
    }
}
