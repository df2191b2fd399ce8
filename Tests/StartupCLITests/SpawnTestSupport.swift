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
                arguments: ["/bin/sh", "-c", "printf %s \"$1\" > \"$2\" && chmod \"$3\" \"$2\"", "sh", contents, path,
                            executable ? "755" : "644"],
                environment: environment, output: .capture))
        try #require(outcome.termination == .exited(0), "cannot create \(path): \(text(outcome))")
    }

    /// Readiness check only: waits (bounded) until a child has atomically created `path`, then returns its pids.
    static func waitForPids(in path: String, timeout: Duration = .seconds(120)) async throws -> [pid_t] {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let text = try? String(contentsOfFile: path, encoding: .utf8) {
                return text.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { pid_t($0) }
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        Issue.record("child never wrote \(path)")
        return []
    }

    /// `true` when `pid` no longer runs: `kill(pid, 0)` fails with ESRCH, or (Linux) it is an unreaped zombie
    /// orphan — in containers whose PID 1 does not reap, killed grandchildren stay zombies forever.
    static func isGone(_ pid: pid_t) -> Bool {
        if kill(pid, 0) == -1 && errno == ESRCH { return true }
        #if os(Linux)
        if let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        {
            let state = stat[stat.index(close, offsetBy: 2)...].prefix(1)
            return state == "Z" || state == "X"
        }
        #endif
        return false
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
        return !isGone(pid)
        #endif
    }

    /// Waits (bounded) for a signalled grandchild to die. Delivery of a signal to a process we do not reap is
    /// asynchronous, so a bounded wait is the only non-flaky way to observe it.
    static func eventuallyGone(_ pid: pid_t, timeout: Duration = .seconds(60)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if isGone(pid) { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return isGone(pid)
    }

    /// Shell snippet that atomically publishes `words` (e.g. `$$ $!`) to `path`.
    static func publish(_ words: String, to path: String) -> String {
        "echo \"\(words)\" > '\(path).tmp' && mv '\(path).tmp' '\(path)'"
    }

    /// The captured output as a string.
    static func text(_ outcome: ProcessOutcome) -> String {
        String(decoding: outcome.output, as: UTF8.self)
    }
}
