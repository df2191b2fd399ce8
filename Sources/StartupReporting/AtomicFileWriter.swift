import Foundation

/// Writes a file so that readers see the old content or the whole new one, never a half-written
/// file: the text goes to a temporary file beside it, which is then renamed over it.
package enum AtomicFileWriter {
    /// Writes `text` to `path`, creating missing parent folders.
    ///
    /// - Throws: The file system's error when the folder cannot be made or the file written.
    package static func write(_ text: String, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url, options: .atomic)
    }
}
