import Foundation
import StartupSupport

@testable import StartupCLI
@testable import StartupKit

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
        let exit: ExitSignal

        var pid: pid_t { process.processIdentifier }

        /// Waits for the exit without holding a thread (a blocking wait on the cooperative pool
        /// stalls every other async test on a 2-core machine) and reads what was written.
        func finish() async -> Result {
            let status = await exit.value()
            defer {
                try? FileManager.default.removeItem(atPath: outputFile)
                try? FileManager.default.removeItem(atPath: errorFile)
            }
            return Result(
                status: status,
                output: (try? String(contentsOfFile: outputFile, encoding: .utf8)) ?? "",
                error: (try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? "")
        }
    }

    /// How a started binary ended, handed from whichever learns it first (see ``watchExit(of:start:)``) to whoever
    /// waits. Read from here, never from the `Process`: when the pidfd tells first, Foundation may not know yet,
    /// and its `terminationReason` traps while it believes the process runs.
    final class ExitSignal: Sendable {
        private let ended = OneShot<(status: Int32, diedOfSignal: Bool)>()

        fileprivate func resolve(status: Int32, diedOfSignal: Bool) { _ = ended.resolve((status, diedOfSignal)) }

        /// The exit status, or the number of the signal it died of (as `Process.terminationStatus`).
        func value() async -> Int32 { await ended.value().status }

        /// Whether it died of a signal.
        func diedOfSignal() async -> Bool { await ended.value().diedOfSignal }
    }

    /// Starts `process` (its `run` is `start`) and returns its exit status to come, as `Process` reports it (the
    /// status, or the signal's number): learned from Foundation's termination handler, or from the child's own
    /// pidfd, whichever comes first. The handler alone is not enough here: Foundation learns of an exit when a
    /// socket the child holds closes, and a command that this test process's engine spawns at that moment inherits
    /// the socket and holds it for as long as it runs; a run's exit was then never delivered.
    static func watchExit(of process: Process, start: () throws -> Void) rethrows -> ExitSignal {
        let exit = ExitSignal()
        process.terminationHandler = { finished in
            exit.resolve(status: finished.terminationStatus, diedOfSignal: finished.terminationReason == .uncaughtSignal)
        }
        try start()
        let pid = process.processIdentifier
        guard let pidfdOpen = SpawnExtensions.pidfdOpen else { return exit }
        let descriptor = pidfdOpen(pid, 0)
        guard descriptor >= 0 else { return exit }  // gone and reaped already: the handler says how
        Thread {
            defer { _ = close(descriptor) }
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            while poll(&entry, 1, -1) < 0 && errno == EINTR {}
            // Left unreaped (WNOWAIT) for Foundation, which reaps it; ECHILD if it did already, and then said how.
            var info = siginfo_t()
            guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == 0 else { return }
            exit.resolve(status: info._sifields._sigchld.si_status, diedOfSignal: info.si_code != Int32(CLD_EXITED))
        }.start()
        return exit
    }

    /// The binary in the same build folder as the running tests (plain or sanitized).
    static var path: String {
        var folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        while !FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent("startup").path), folder.path != "/" {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent("startup").path
    }

    /// How many times slower than a plain build the binary may be: 4 for the thread sanitizer's build (`make
    /// test-tsan`), 1 otherwise. Loose time bounds of end-to-end tests are multiplied by it.
    static var slowness: Double {
        isSanitized ? 4 : 1
    }

    /// Whether the binary is the thread sanitizer's build (`make test-tsan`), where each process costs several times
    /// the CPU: tests that start hundreds of processes start fewer, so as not to starve the suites beside them.
    static var isSanitized: Bool {
        path.contains("/.build-tsan/")
    }

    /// Starts the binary in `directory`.
    static func start(_ arguments: [String], in directory: String, environment: [String: String] = [:]) throws -> Running {
        try launch(path, arguments, in: directory, environment: environment)
    }

    /// Starts any executable in `directory` with its output going to files and no input.
    static func launch(
        _ executable: String, _ arguments: [String], in directory: String,
        environment: [String: String] = [:]
    ) throws -> Running {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
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
        let exit = try watchExit(of: process) { try process.run() }
        return Running(process: process, outputFile: outputFile, errorFile: errorFile, exit: exit)
    }

    /// A started binary whose standard output is a pipe the test reads (standard error goes to a file).
    struct PipedRunning {
        let process: Process
        /// The read end of standard output, for `LineReader`.
        let output: Int32
        let errorFile: String
        let exit: ExitSignal
    }

    /// Starts the binary in `directory` with its standard output going to a pipe the test reads, so the test
    /// learns what it printed as it prints it; standard error goes to the same pipe when `mergingErrors` (the
    /// error file then stays empty). The signals named in `ignoring` (`"HUP"`) are ignored when it starts, as under
    /// `nohup`: a shell ignores them and execs the binary (same pid).
    static func startWithPipedOutput(
        _ arguments: [String], in directory: String, mergingErrors: Bool = false, ignoring signals: [String] = []
    ) throws -> PipedRunning {
        let process = Process()
        if signals.isEmpty {
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "trap '' \(signals.joined(separator: " ")); exec \"$0\" \"$@\"", path] + arguments
        }
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let pipe = Pipe()
        process.standardOutput = pipe
        let errorFile = NSTemporaryDirectory() + "startup-err-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: errorFile, contents: nil)
        process.standardError = mergingErrors ? pipe : FileHandle(forWritingAtPath: errorFile)
        process.standardInput = FileHandle.nullDevice
        let reader = fcntl(pipe.fileHandleForReading.fileDescriptor, F_DUPFD_CLOEXEC, 0)
        try pipe.fileHandleForReading.close()
        let exit = try watchExit(of: process) { try process.run() }
        return PipedRunning(process: process, output: reader, errorFile: errorFile, exit: exit)
    }

    /// Runs the binary to the end.
    static func run(_ arguments: [String], in directory: String, environment: [String: String] = [:]) async throws -> Result {
        try await start(arguments, in: directory, environment: environment).finish()
    }
}
