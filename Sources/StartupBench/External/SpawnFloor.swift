#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The bare cost of running a program N times with at most J at once, in this process: `posix_spawn` and
/// `waitpid`, no graph, no shell, no capture, nothing else. What `startup run` is held against on a storm of
/// `true` commands (`cli-vs-spawn-floor`).
enum SpawnFloor {
    /// Runs `program` (an absolute path, no arguments) `count` times with at most `slots` running, timed from
    /// the first spawn to the last exit. Must not run while this process has other children (it waits for any).
    static func run(_ program: String, count: Int, slots: Int) -> ProcessRunner.Outcome {
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(program), nil]
        #if canImport(Glibc)
            let environment = environ
        #else
            let environment = _NSGetEnviron().pointee
        #endif
        defer { free(argv[0]) }
        let clock = ContinuousClock()
        let start = clock.now
        let spawnedAt = WallClock.nanoseconds()
        var started = 0
        var running = 0
        var failure: String?
        while started < count || running > 0 {
            while started < count, running < max(1, slots), failure == nil {
                var pid: pid_t = 0
                let code = argv.withUnsafeBufferPointer { posix_spawn(&pid, program, nil, nil, $0.baseAddress!, environment) }
                if code != 0 {
                    failure = "posix_spawn \(program) failed: \(String(cString: strerror(code)))"
                    break
                }
                started += 1
                running += 1
            }
            guard running > 0 else { break }
            var status: Int32 = 0
            let pid = waitpid(-1, &status, 0)
            if pid > 0 {
                running -= 1
                if status != 0 { failure = failure ?? "\(program) exited with status \(status)" }
            } else if errno != EINTR {
                failure = failure ?? "waitpid failed: \(String(cString: strerror(errno)))"
                break
            }
        }
        return ProcessRunner.Outcome(wallTime: start.duration(to: clock.now), spawnedAt: spawnedAt, failure: failure)
    }
}
