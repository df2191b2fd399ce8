import Foundation
import Testing

/// Output never slows the run or skews its timings: a slow reader of standard output delays only
/// the printing (the issue's case: b recorded as 3,190 ms instead of its real time).
@Suite struct SlowReaderTests {
    @Test func run_withStandardOutputReadSlowly_recordsTheRealDurations() async throws {
        let folder = try TemporaryDirectory()
        // "noisy" prints 64 KiB that the progress printer shows under it as it finishes, while
        // "sleeper" (one second) runs; the reader takes about 1.6 s for that output.
        try folder.write(
            "commands.json",
            #"""
            {"version": 1, "commands": [
              {"id": "noisy", "run": "head -c 65536 /dev/zero | tr '\\0' x"},
              {"id": "sleeper", "dependencies": ["noisy"], "run": "sleep 1"},
              {"id": "after", "dependencies": ["sleeper"], "run": "true"}
            ]}
            """#)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: StartupBinary.path)
        process.arguments = ["run", "--report", "report.json"]
        process.currentDirectoryURL = URL(fileURLWithPath: folder.path)
        let pipe = Pipe()
        // The smallest pipe Linux allows, so the printer blocks as soon as the reader lags.
        _ = fcntl(pipe.fileHandleForReading.fileDescriptor, 1031 /* F_SETPIPE_SZ */, 4096)
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let exit = try StartupBinary.watchExit(of: process) { try process.run() }
        try pipe.fileHandleForWriting.close()

        // A slow consumer (not a wait): 2 KiB every 50 ms until the end of the output.
        let reader = Thread {
            let descriptor = pipe.fileHandleForReading.fileDescriptor
            var buffer = [UInt8](repeating: 0, count: 2048)
            while read(descriptor, &buffer, buffer.count) > 0 { usleep(50_000) }
        }
        reader.start()
        let status = await exit.value()
        #expect(status == 0)

        let data = try Data(contentsOf: URL(fileURLWithPath: folder.file("report.json")))
        let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let commands = try #require(report["commands"] as? [[String: Any]])
        let sleeper = try #require(commands.first { $0["id"] as? String == "sleeper" })
        let duration = try #require(sleeper["durationMs"] as? Double)
        #expect(duration >= 1_000 && duration < 1_100, "sleeper recorded \(duration) ms for a 1 s sleep")
    }
}
