import Foundation

/// Reads the JSON documents of this package (manifests, saved run reports) from disk, telling a
/// missing, unreadable or directory path apart from content that is wrong.
package enum DocumentFile {
    /// Why a document's bytes could not be read: `no such file`, `permission denied`, ...
    package struct Unreadable: Error, Sendable {
        /// The reason, in words.
        package let reason: String
    }

    /// The file's bytes.
    ///
    /// - Parameters:
    ///   - path: Absolute or relative to the current directory.
    ///   - kind: What the file should be, for the message (`"a manifest file"`).
    /// - Throws: ``Unreadable`` naming the reason.
    package static func bytes(atPath path: String, kind: String) throws(Unreadable) -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw Unreadable(reason: "no such file")
        }
        guard !isDirectory.boolValue else {
            throw Unreadable(reason: "is a directory, not \(kind)")
        }
        do {
            return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw Unreadable(reason: FileManager.default.isReadableFile(atPath: path) ? "cannot be read" : "permission denied")
        }
    }
}
