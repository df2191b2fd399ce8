import Foundation

extension RunRecord {
    /// Reads a saved run report (`startup run` writes `.startup/last-run.json`; `startup run
    /// --format json` prints the same).
    ///
    /// - Parameter path: The file's path, absolute or relative to the current directory.
    /// - Throws: ``RunRecordError`` with code `.unreadable` when the file is missing, a directory or
    ///   cannot be read, or `.invalid` with every problem found.
    public static func load(path: String) throws(RunRecordError) -> RunRecord {
        try decode(DocumentFile.bytes(atPath: path, kind: "a report file"), file: path)
    }

    /// Reads run report bytes.
    ///
    /// Keys the reader does not know are ignored, so reports of later versions still read.
    ///
    /// - Parameters:
    ///   - bytes: The JSON text, UTF-8.
    ///   - file: The name used in error messages.
    /// - Throws: ``RunRecordError`` with code `.invalid` and every problem found.
    public static func decode(_ bytes: [UInt8], file: String = "report.json") throws(RunRecordError) -> RunRecord {
        try RunRecordDecoder.decode(bytes, file: file)
    }
}
