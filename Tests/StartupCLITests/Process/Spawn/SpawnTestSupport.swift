import Foundation
import Testing

@testable import StartupCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Helpers shared by the process-spawning tests.
enum SpawnTestSupport {
    /// A minimal, fully specified child environment.
    static let environment = ["PATH": "/usr/bin:/bin"]

    /// Creates a fresh directory (symlinks resolved, so it compares equal to `pwd -P`) and returns its path.
    static func makeTemporaryDirectory() throws -> String {
        let base = URL(fileURLWithPath: NSTemporaryDirectory()).resolvingSymlinksInPath()
        let directory = base.appendingPathComponent("startup-spawn-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.path
    }

    /// Removes a directory made by `makeTemporaryDirectory`.
    static func remove(_ directory: String) {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Writes `contents` to `path` (mode 0755 when `executable`) from a short-lived child process. Writing an
    /// executable from this process could make exec fail with ETXTBSY: a child spawned concurrently by another
    /// test may briefly hold a copy of our write descriptor until its exec closes it.
    static func writeFile(_ path: String, _ contents: String, executable: Bool) async throws {
        let outcome = await ProcessSpawner.run(
            ProcessSpec(
                arguments: [
                    "/bin/sh", "-c", "printf %s \"$1\" > \"$2\" && chmod \"$3\" \"$2\"", "sh", contents, path,
                    executable ? "755" : "644",
                ],
                environment: environment, output: .capture))
        try #require(outcome.termination == .exited(0), "cannot create \(path): \(text(outcome))")
    }

    /// `true` when `pid` is running and has no SIGTERM/SIGKILL pending. `kill()` queues a signal before it returns,
    /// so unlike "still alive", this observes a kill we sent to a process we do not reap without racing it.
    static func isRunningAndUnsignalled(_ pid: pid_t) -> Bool {
        #if os(Linux)
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return false }
            var fields: [String: String] = [:]
            for line in status.split(separator: "\n") {
                let parts = line.split(separator: ":", maxSplits: 1)
                if parts.count == 2 { fields[String(parts[0])] = parts[1].trimmingCharacters(in: .whitespaces) }
            }
            let fatal: UInt64 = 1 << (UInt64(SIGKILL) - 1) | 1 << (UInt64(SIGTERM) - 1)
            let pending = ["SigPnd", "ShdPnd"].map { UInt64(fields[$0] ?? "", radix: 16) ?? .max }
            let state = fields["State"]?.first
            return state != "Z" && state != "X" && pending.allSatisfy { $0 & fatal == 0 }
        #else
            return !(kill(pid, 0) == -1 && errno == ESRCH)
        #endif
    }

    /// Shell snippet that writes `words` (e.g. `$$ $!`) as one line to the FIFO at `path` (it blocks until the test
    /// reads, see `readPids(fromFIFO:)`).
    static func publish(_ words: String, to path: String) -> String {
        "echo \"\(words)\" > '\(path)'"
    }

    /// Waits for a child to write its pids to the FIFO at `path` (made with `LineReader.makeFIFO`) and returns them.
    static func readPids(fromFIFO path: String) async -> [pid_t] {
        await LineReader.readLine(fromFIFO: path).split(separator: " ").compactMap { pid_t($0) }
    }

    /// The captured output as a string.
    static func text(_ outcome: ProcessOutcome) -> String {
        String(decoding: outcome.output, as: UTF8.self)
    }
}
