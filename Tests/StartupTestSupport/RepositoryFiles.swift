import Foundation

/// The package's own files (its documents, schema and sample manifest), for the tests that read them.
package enum RepositoryFiles {
    /// The package's root folder.
    package static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The file at `path`, relative to the package's root.
    package static func url(_ path: String) -> URL {
        root.appendingPathComponent(path)
    }

    /// The text of the file at `path`, relative to the package's root.
    package static func text(_ path: String) throws -> String {
        try String(contentsOf: url(path), encoding: .utf8)
    }
}
