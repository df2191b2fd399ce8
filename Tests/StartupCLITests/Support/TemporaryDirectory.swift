import Foundation

/// A fresh folder for one test, removed when the value is released.
final class TemporaryDirectory: Sendable {
    let path: String

    init() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("startup-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        path = url.path
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Writes a file under the folder and returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let file = (path as NSString).appendingPathComponent(name)
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    /// The path of a file under the folder.
    func file(_ name: String) -> String {
        (path as NSString).appendingPathComponent(name)
    }
}
