import Foundation

extension Manifest {
    /// Reads and validates a manifest file.
    ///
    /// - Parameter path: The file's path, absolute or relative to the current directory.
    /// - Throws: ``ManifestError`` with code `.unreadable` when the file is missing, a directory or
    ///   cannot be read, or `.invalid` with every problem found.
    public static func load(path: String) throws(ManifestError) -> Manifest {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw unreadable(path, "no such file")
        }
        guard !isDirectory.boolValue else {
            throw unreadable(path, "is a directory, not a manifest file")
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = FileManager.default.isReadableFile(atPath: path) ? "cannot be read" : "permission denied"
            throw unreadable(path, reason)
        }
        return try decode(Array(data), file: path)
    }

    /// Validates manifest bytes.
    ///
    /// - Parameters:
    ///   - bytes: The JSON text, UTF-8.
    ///   - file: The name used in error messages.
    /// - Throws: ``ManifestError`` with code `.invalid` and every problem found.
    public static func decode(_ bytes: [UInt8], file: String = "commands.json") throws(ManifestError) -> Manifest {
        try ManifestDecoder.decode(bytes, file: file)
    }

    private static func unreadable(_ path: String, _ reason: String) -> ManifestError {
        ManifestError(code: .unreadable, file: path, problems: [ManifestProblem(line: nil, column: nil, path: "", message: reason)])
    }
}
