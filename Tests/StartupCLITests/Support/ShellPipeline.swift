import Foundation

/// Runs a `/bin/sh` line that uses the built `startup` binary as `"$STARTUP"`, for what a user does
/// with redirections and pipes (`> /dev/full`, `cat m.json | "$STARTUP" plan -f -`). The line's
/// own standard output and error go to files; its exit status is the pipeline's.
enum ShellPipeline {
    static func run(_ line: String, in directory: String) async throws -> StartupBinary.Result {
        try await StartupBinary.launch("/bin/sh", ["-c", line], in: directory, environment: ["STARTUP": StartupBinary.path]).finish()
    }
}
