#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a file could not be written: which file, the system's error and, when a parent folder could
/// not be made, which folder.
public struct FileWriteError: Error, Equatable, CustomStringConvertible {
    /// The file that was being written.
    public let path: String
    /// The system's error number (`errno`).
    public let errorNumber: Int32
    /// The parent folder that could not be made, if that is where it failed.
    public let folder: String?

    /// An error writing `path`, or making its parent `folder`.
    public init(path: String, errorNumber: Int32, folder: String? = nil) {
        self.path = path
        self.errorNumber = errorNumber
        self.folder = folder
    }

    /// The system's reason in words: `permission denied`, `not a directory`.
    public var reason: String {
        let words = String(cString: strerror(errorNumber))
        return words.prefix(1).lowercased() + words.dropFirst()
    }

    /// The reason and where: `not a directory (making the folder out/report.json)`.
    public var description: String {
        folder.map { "\(reason) (making the folder \($0))" } ?? reason
    }
}
