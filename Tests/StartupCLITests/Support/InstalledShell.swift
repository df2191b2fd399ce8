import Foundation
import Testing

/// A shell found on the test machine's `PATH`, for the completion scripts' tests (which skip,
/// saying why, when it is missing).
enum InstalledShell {
    /// The path of `name` on `PATH`, or `nil` if it is not installed.
    static func path(_ name: String) -> String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return folders.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `script` with the shell `name` (`-c`) in `directory`, with the built `startup` first on
    /// `PATH` and `HOME` set to `home`.
    static func run(_ name: String, _ script: String, in directory: String, home: String? = nil) async throws -> StartupBinary.Result {
        let shell = try #require(path(name))
        let binaryFolder = URL(fileURLWithPath: StartupBinary.path).deletingLastPathComponent().path
        var environment = ["PATH": binaryFolder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")]
        if let home { environment["HOME"] = home }
        return try await StartupBinary.launch(shell, ["-c", script], in: directory, environment: environment).finish()
    }
}
