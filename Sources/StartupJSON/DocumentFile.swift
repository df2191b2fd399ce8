import Foundation

/// Reads the JSON documents of this package (manifests, saved run reports) from disk, telling a
/// missing, unreadable or directory path apart from content that is wrong.
package enum DocumentFile {
    /// The file's bytes.
    ///
    /// - Parameters:
    ///   - path: Absolute or relative to the current directory.
    ///   - kind: What the file should be, for the message (`"a manifest file"`).
    /// - Throws: ``DocumentError`` with code `.unreadable` naming the reason.
    package static func bytes(atPath path: String, kind: String) throws(DocumentError) -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw unreadable(path, "no such file")
        }
        guard !isDirectory.boolValue else {
            throw unreadable(path, "is a directory, not \(kind)")
        }
        do {
            return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw unreadable(path, FileManager.default.isReadableFile(atPath: path) ? "cannot be read" : "permission denied")
        }
    }

    private static func unreadable(_ path: String, _ reason: String) -> DocumentError {
        DocumentError(code: .unreadable, file: path, problems: [DocumentProblem(line: nil, column: nil, path: "", message: reason)])
    }
}
