import StartupJSON

extension Manifest {
    /// Reads and validates a manifest file, pipe or FIFO, or standard input for `-` (named
    /// `<stdin>` in errors).
    ///
    /// - Parameter path: The file's path, absolute or relative to the current directory, or `-`.
    /// - Throws: ``ManifestError`` with code `.unreadable` when the file is missing, a directory or
    ///   cannot be read, or `.invalid` with every problem found.
    public static func load(path: String) throws(ManifestError) -> Manifest {
        try decode(DocumentFile.bytes(atPath: path, kind: "a manifest file"), file: DocumentFile.displayName(path))
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
}
