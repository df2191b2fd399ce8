import StartupJSON
import StartupKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension LaunchProfile {
    /// Reads a profile saved by ``save(to:)``; a file that does not exist is an empty profile
    /// (the first launch has none).
    ///
    /// - Parameter path: The file's path, absolute or relative to the current directory.
    /// - Throws: `ReportError` naming the path: `.invalid` with every problem found when the file
    ///   is not a launch profile, `.unreadable` when it exists but cannot be read.
    public static func load(path: String) throws(ReportError) -> LaunchProfile {
        var status = stat()
        if stat(path, &status) != 0, errno == ENOENT { return LaunchProfile() }
        return try decode(DocumentFile.bytes(atPath: path, kind: "a launch profile"), file: DocumentFile.displayName(path))
    }

    /// Reads profile bytes.
    ///
    /// - Parameters:
    ///   - bytes: The JSON text, UTF-8.
    ///   - file: The name used in error messages.
    /// - Throws: `ReportError` with code `.invalid` and every problem found, in document order.
    public static func decode(_ bytes: [UInt8], file: String = "launch-profile.json") throws(ReportError) -> LaunchProfile {
        try LaunchProfileDecoder.decode(bytes, file: file)
    }

    /// The profile as JSON: `{"version": 1, "commands": [{"id", "durationsMs": [oldest, ..., newest]}]}`,
    /// commands sorted by id.
    public func json() -> JSONOutput {
        .object([
            ("version", .integer(1)),
            (
                "commands",
                .array(
                    ids.map { id in
                        .object([("id", .string(id.rawValue)), ("durationsMs", .array(durations(of: id).map(JSONOutput.milliseconds)))])
                    })
            ),
        ])
    }

    /// Writes the profile, pretty-printed, so that readers see the old file or the whole new one,
    /// never a half-written file; missing parent folders are made.
    ///
    /// - Throws: `FileWriteError` when the folder cannot be made or the file written.
    public func save(to path: String) throws(FileWriteError) {
        try AtomicFileWriter.write(json().text(pretty: true) + "\n", to: path)
    }
}
