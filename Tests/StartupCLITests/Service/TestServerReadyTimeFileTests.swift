import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `startup-test-server --ready-time-file`: the bench's "became ready" moment, taken by the server itself right
/// after `listen()`.
@Suite struct TestServerReadyTimeFileTests {
    /// Nanoseconds since 1970 on the wall clock, as the server writes them.
    private func realtimeNanoseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int(now.tv_sec) * 1_000_000_000 + Int(now.tv_nsec)
    }

    @Test func readyTimeFile_holdsTheMomentAfterTheDelay_beforeTheReadyLine_whileTheServerAccepts() async throws {
        let folder = try TemporaryDirectory()
        let timeFile = folder.file("ready-time")
        let port = TestServer.freePort()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestServer.path)
        process.arguments = ["--port", String(port), "--delay", "200ms", "--ready-line", "listening", "--ready-time-file", timeFile]
        let pipe = Pipe()
        process.standardOutput = pipe
        let reader = fcntl(pipe.fileHandleForReading.fileDescriptor, F_DUPFD_CLOEXEC, 0)
        try pipe.fileHandleForReading.close()
        let launched = realtimeNanoseconds()
        // Its exit from its pidfd too: Foundation's handler alone can wait forever (see watchExit).
        let exit = try StartupBinary.watchExit(of: process) { try process.run() }

        let line = await LineReader.readLine(from: reader, closes: true)
        let sawLine = realtimeNanoseconds()
        let accepts = TestServer.accepts(port: port)
        let written = try? String(contentsOfFile: timeFile, encoding: .utf8)
        // SIGKILL: a child of the test process starts with SIGTERM blocked (the mask is inherited).
        kill(process.processIdentifier, SIGKILL)
        _ = await exit.value()

        #expect(line == "listening")
        #expect(accepts)
        let text = try #require(written, "no file at \(timeFile)")
        let readyTime = try #require(Int(text.trimmingCharacters(in: .newlines)), "not a number: \(text)")
        #expect(text.hasSuffix("\n"))
        #expect(readyTime - launched >= 200_000_000, "taken before the 200 ms delay had passed")
        #expect(readyTime <= sawLine, "taken after the ready line was read")
    }

    @Test func readyTimeFileThatCannotBeWritten_exits64NamingThePath() async throws {
        let folder = try TemporaryDirectory()
        let missing = folder.file("no-such-folder/ready-time")
        let result = try await StartupBinary.launch(TestServer.path, ["--ready-time-file", missing], in: folder.path).finish()
        #expect(result.status == 64)
        #expect(result.error.contains("cannot write --ready-time-file \(missing): No such file or directory"))
        #expect(result.output.isEmpty)
    }
}
