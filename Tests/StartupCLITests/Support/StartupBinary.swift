import Foundation

/// Runs the built `startup` binary as a user would, capturing standard output, standard error and
/// the exit status.
enum StartupBinary {
    struct Result {
        let status: Int32
        let output: String
        let error: String
    }

    /// A started binary whose output goes to files, so nothing can block on a full pipe.
    struct Running {
        let process: Process
        let outputFile: String
        let errorFile: String

        var pid: pid_t { process.processIdentifier }

        /// Waits for the exit and reads what was written.
        func finish() -> Result {
            process.waitUntilExit()
            defer {
                try? FileManager.default.removeItem(atPath: outputFile)
                try? FileManager.default.removeItem(atPath: errorFile)
            }
            return Result(status: process.terminationStatus,
                          output: (try? String(contentsOfFile: outputFile, encoding: .utf8)) ?? "",
                          error: (try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? "")
        }
    }

    /// The binary in the same build folder as the running tests (plain or sanitized).
    static var path: String {
        var folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        while !FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent("startup").path), folder.path != "/" {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent("startup").path
    }

    /// Starts the binary in `directory`.
    static func start(_ arguments: [String], in directory: String, environment: [String: String] = [:]) throws -> Running {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let outputFile = NSTemporaryDirectory() + "startup-out-\(UUID().uuidString)"
        let errorFile = NSTemporaryDirectory() + "startup-err-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: outputFile, contents: nil)
        _ = FileManager.default.createFile(atPath: errorFile, contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: outputFile)
        process.standardError = FileHandle(forWritingAtPath: errorFile)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return Running(process: process, outputFile: outputFile, errorFile: errorFile)
    }

    /// Runs the binary to the end.
    static func run(_ arguments: [String], in directory: String, environment: [String: String] = [:]) throws -> Result {
        try start(arguments, in: directory, environment: environment).finish()
    }
}

/// Waits until a file exists and has content, or the deadline passes; for readiness checks of
/// processes started by a test (never for asserting timing).
func waitForFile(_ path: String, timeout: Duration = .seconds(20)) async -> String? {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if let text = try? String(contentsOfFile: path, encoding: .utf8), text.hasSuffix("\n") { return text }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return nil
}
