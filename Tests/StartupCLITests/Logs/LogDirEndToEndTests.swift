import Foundation
import StartupKit
import Testing

@testable import StartupCLI

/// `startup run --log-dir DIR` through the binary: each command's and service's output, byte for byte, in `DIR/ID.log`,
/// with a header line for each start. One test at a time: each starts the binary, and tests that give a probe 1 s share
/// the machine.
@Suite(.serialized, .timeLimit(.minutes(2))) struct LogDirEndToEndTests {
    /// A log, read back: its header lines, and its bytes with each header line (and its line break) written `#\n`.
    private struct Log {
        var headers: [String] = []
        var skeleton: [UInt8] = []

        init(_ path: String) throws {
            let bytes = try [UInt8](#require(FileManager.default.contents(atPath: path), "no log at \(path)"))
            let marker = Array("--- startup: ".utf8)
            var index = 0
            while index < bytes.count {
                if index == 0 || bytes[index - 1] == 0x0A, bytes[index...].starts(with: marker) {
                    let end = bytes[index...].firstIndex(of: 0x0A) ?? bytes.count
                    headers.append(String(decoding: bytes[index..<end], as: UTF8.self))
                    skeleton += Array("#\n".utf8)
                    index = end + 1
                } else {
                    skeleton.append(bytes[index])
                    index += 1
                }
            }
        }

        /// The skeleton as text (for output that is UTF-8).
        var text: String { String(decoding: skeleton, as: UTF8.self) }
    }

    /// A header line for attempt `attempt`.
    private static func isHeader(_ line: String, attempt: Int) -> Bool {
        line.wholeMatch(of: /--- startup: attempt (\d+) at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d ---/)?.1 == "\(attempt)"
    }

    @Test func eachCommandsOutput_isLoggedByteForByte_bothStreamsInTheOrderWritten() async throws {
        let folder = try TemporaryDirectory()
        try folder.write(
            "commands.json",
            #"""
            {"version": 1, "commands": [
              {"id": "bytes", "run": "printf '\\377\\376\\200\\000\\033[31m'"},
              {"id": "mixed", "run": "printf 'o1\\n'; printf 'e1\\n' >&2; printf 'o2 '; printf 'e2' >&2; printf ' o3\\n'"},
              {"id": "quiet", "run": "true"}
            ]}
            """#)
        let result = try await StartupBinary.run(["run", "--no-report", "--log-dir", "logs/run"], in: folder.path)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error == "")
        #expect(result.output.contains("│ o1\n    │ e1\n    │ o2 e2 o3"), "the summary still shows the output")
        let bytes = try Log(folder.file("logs/run/bytes.log"))
        #expect(bytes.skeleton == Array("#\n".utf8) + [0xFF, 0xFE, 0x80, 0x00, 0x1B] + Array("[31m".utf8))
        #expect(bytes.headers.count == 1 && Self.isHeader(bytes.headers[0], attempt: 1), "\(bytes.headers)")
        #expect(try Log(folder.file("logs/run/mixed.log")).text == "#\no1\ne1\no2 e2 o3\n")
        #expect(try Log(folder.file("logs/run/quiet.log")).text == "#\n", "a start is logged even when nothing is written")
    }

    @Test func eachAttempt_hasItsHeader_onANewLine_afterOutputWithoutALineBreak() async throws {
        let folder = try TemporaryDirectory()
        try folder.write(
            "commands.json",
            #"""
            {"version": 1, "commands": [
              {"id": "flaky", "retries": 1, "run": "if [ -f tried ]; then echo second; else touch tried; printf 'first, cut'; exit 1; fi"}
            ]}
            """#)
        let result = try await StartupBinary.run(["run", "--no-report", "--log-dir", "logs"], in: folder.path)
        #expect(result.status == 0, "\(result.output)\(result.error)")
        let log = try Log(folder.file("logs/flaky.log"))
        #expect(log.text == "#\nfirst, cut\n#\nsecond\n")
        #expect(log.headers.count == 2 && Self.isHeader(log.headers[0], attempt: 1) && Self.isHeader(log.headers[1], attempt: 2))
    }

    @Test func runsAppendToTheLogs() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", #"{"version": 1, "commands": [{"id": "a", "run": "printf 'run %s' $$"}]}"#)
        let first = try await StartupBinary.run(["run", "--no-report", "--log-dir", "logs"], in: folder.path)
        let second = try await StartupBinary.run(["run", "--no-report", "--log-dir", "logs"], in: folder.path)
        #expect(first.status == 0 && second.status == 0)
        let log = try Log(folder.file("logs/a.log"))
        #expect(log.text.wholeMatch(of: /#\nrun \d+\n#\nrun \d+/) != nil, "\(log.text)")
        #expect(log.headers.count == 2 && log.headers.allSatisfy { Self.isHeader($0, attempt: 1) })
    }

    @Test func aServicesOutput_isLogged_withItsStopLines() async throws {
        let folder = try TemporaryDirectory()
        let marker = "log-\(UUID().uuidString)"
        let port = TestServer.freePort()
        // The stop line stops the server itself, by the pid its shell had before the exec.
        try folder.write(
            "commands.json",
            """
            {"version": 1, "commands": [
              {"id": "api", "run": "printf 'starting '; echo $$ > api.pid; exec \(TestServer.path) --port \(port) --ready-line \(marker)-listening",
               "ready": {"log": "listening"}, "stop": "printf 'stopping\\\\377'; kill $(cat api.pid)"}
            ]}
            """)
        let result = try await StartupBinary.run(["run", "--no-report", "--log-dir", "logs", "--", "true"], in: folder.path)
        #expect(result.status == 0, "\(result.output)\(result.error)")
        let log = try Log(folder.file("logs/api.log"))
        #expect(log.skeleton == Array("#\nstarting \(marker)-listening\nstopping".utf8) + [0xFF])
        #expect(log.headers.count == 1 && Self.isHeader(log.headers[0], attempt: 1))
        #expect(TestServer.processes(marked: marker).isEmpty)
    }

    @Test func anIdThatIsNoSafeFileName_isEscaped() async throws {
        let folder = try TemporaryDirectory()
        let long = String(repeating: "é", count: 150)
        try folder.write(
            "commands.json",
            """
            {"version": 1, "commands": [
              {"id": "db/main", "run": "echo slash"}, {"id": ".hidden", "run": "echo dot"}, {"id": "\(long)", "run": "echo long"}
            ]}
            """)
        let result = try await StartupBinary.run(["run", "--no-report", "--log-dir", "logs"], in: folder.path)
        #expect(result.status == 0, "\(result.error)")
        #expect(try Log(folder.file("logs/db%2Fmain.log")).text == "#\nslash\n")
        #expect(try Log(folder.file("logs/%2Ehidden.log")).text == "#\ndot\n")
        let longPath = LogFileName.path(for: CommandID(long))
        #expect(longPath.contains("/"), "300 bytes: cut into a folder and a file")
        #expect(try Log(folder.file("logs/" + longPath)).text == "#\nlong\n")
        let names = try FileManager.default.subpathsOfDirectory(atPath: folder.file("logs")).filter { $0.hasSuffix(".log") }
        #expect(Set(names.compactMap { LogFileName.id(atPath: $0)?.rawValue }) == ["db/main", ".hidden", long])
    }

    @Test func aFolderThatCannotBeMade_exits73_beforeAnythingRuns() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("blocker", "a file, not a folder")
        try folder.write("commands.json", #"{"version": 1, "commands": [{"id": "a", "run": "touch ran"}]}"#)
        let result = try await StartupBinary.run(["run", "--no-report", "--log-dir", "blocker/logs"], in: folder.path)
        #expect(result.status == 73)
        #expect(result.error == "error: cannot create the log folder blocker/logs: blocker is not a folder\n")
        #expect(result.output == "")
        #expect(!FileManager.default.fileExists(atPath: folder.file("ran")), "nothing ran")
    }

    @Test func aLogThatCannotBeWritten_warnsOnce_andStopsNothing() async throws {
        let folder = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: folder.file("logs/a.log"), withIntermediateDirectories: true)
        try folder.write(
            "commands.json",
            #"""
            {"version": 1, "commands": [
              {"id": "a", "retries": 1, "run": "echo one; echo two >&2; [ -f tried ] || { touch tried; exit 1; }"},
              {"id": "b", "dependencies": ["a"], "run": "echo b"}
            ]}
            """#)
        let result = try await StartupBinary.run(["run", "--no-report", "--log-dir", "logs"], in: folder.path)
        #expect(result.status == 0, "\(result.output)\(result.error)")
        #expect(result.error == "warning: cannot write the log logs/a.log: Is a directory; the rest of the output of \"a\" is not logged\n")
        #expect(try Log(folder.file("logs/b.log")).text == "#\nb\n")
    }

    @Test func streamedOutput_isShownAndLogged() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", #"{"version": 1, "commands": [{"id": "a", "run": "echo out; echo err >&2"}]}"#)
        let result = try await StartupBinary.run(["run", "--no-report", "--output", "stream", "--log-dir", "logs"], in: folder.path)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.hasPrefix("out\nerr\n"), "both streams, on standard output: \(result.output)")
        #expect(try Log(folder.file("logs/a.log")).text == "#\nout\nerr\n")
    }

    @Test func aCommandThatLeavesADaemonHoldingItsOutput_endsWhenItExits() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", #"{"version": 1, "commands": [{"id": "a", "run": "(sleep 3; echo late) & echo early"}]}"#)
        let clock = ContinuousClock()
        let start = clock.now
        let result = try await StartupBinary.run(["run", "--no-report", "--log-dir", "logs"], in: folder.path)
        #expect(clock.now - start < .seconds(2), "the run does not wait for the daemon's end of file")
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("│ early"))
        #expect(try Log(folder.file("logs/a.log")).text == "#\nearly\n")
    }

    @Test func aRunWithoutLogDir_writesNoLog() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", #"{"version": 1, "commands": [{"id": "a", "run": "echo hello"}]}"#)
        let result = try await StartupBinary.run(["run", "--no-report"], in: folder.path)
        #expect(result.status == 0)
        #expect(try FileManager.default.subpathsOfDirectory(atPath: folder.path) == ["commands.json"])
    }
}
