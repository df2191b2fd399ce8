import Foundation

/// Runs a `/bin/sh` line that uses the built `startup` binary as `"$STARTUP"`, for what a user does
/// with redirections and pipes (`> /dev/full`, `cat m.json | "$STARTUP" plan -f -`). The line's
/// own standard output and error go to files; its exit status is the pipeline's.
enum ShellPipeline {
    static func run(_ line: String, in directory: String) async throws -> StartupBinary.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", line]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = ProcessInfo.processInfo.environment.merging(["STARTUP": StartupBinary.path]) { _, new in new }
        let outputFile = NSTemporaryDirectory() + "startup-out-\(UUID().uuidString)"
        let errorFile = NSTemporaryDirectory() + "startup-err-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: outputFile, contents: nil)
        _ = FileManager.default.createFile(atPath: errorFile, contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: outputFile)
        process.standardError = FileHandle(forWritingAtPath: errorFile)
        process.standardInput = FileHandle.nullDevice
        let exit = StartupBinary.ExitSignal()
        process.terminationHandler = { finished in exit.finished(finished.terminationStatus) }
        try process.run()
        return await StartupBinary.Running(process: process, outputFile: outputFile, errorFile: errorFile, exit: exit).finish()
    }
}
