#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs an external program with `posix_spawn` and `waitpid` (no polling), timing it from just
/// before the spawn to just after the wait.
enum ProcessRunner {
    /// How one run ended.
    struct Outcome: Sendable {
        /// From before `posix_spawn` to after `waitpid`.
        let wallTime: Duration
        /// The wall clock just before the (first) `posix_spawn`, in nanoseconds since 1970: comparable with a
        /// time the program itself reads.
        let spawnedAt: Int64
        /// `nil` on a clean exit with status 0, else what went wrong.
        let failure: String?
    }

    /// Runs `path` with `arguments`, stdout to `stdoutPath` and stderr to `stderrPath` (both truncated).
    ///
    /// - Parameters:
    ///   - path: The program's absolute path.
    ///   - arguments: The arguments after the program name.
    ///   - stdoutPath: Where the program's standard output goes (by default nowhere).
    ///   - stderrPath: Where the program's standard error goes, to explain a failure.
    static func run(_ path: String, _ arguments: [String], stdoutPath: String = "/dev/null", stderrPath: String) -> Outcome {
        let clock = ContinuousClock()
        let start = clock.now
        let spawnedAt = WallClock.nanoseconds()
        switch self.start(path, arguments, stdoutPath: stdoutPath, stderrPath: stderrPath) {
        case .failure(let problem):
            return Outcome(wallTime: start.duration(to: clock.now), spawnedAt: spawnedAt, failure: problem.description)
        case .success(let pid):
            let failure = wait(pid)
            return Outcome(wallTime: start.duration(to: clock.now), spawnedAt: spawnedAt, failure: failure)
        }
    }

    /// Why a program could not be started.
    struct SpawnProblem: Error, CustomStringConvertible {
        /// `posix_spawn`'s error.
        let code: Int32

        var description: String { "posix_spawn failed: \(String(cString: strerror(code)))" }
    }

    /// Starts `path` with `arguments` (standard input empty, the outputs to the files given, truncated) and returns
    /// its pid, for ``wait(_:)``.
    static func start(
        _ path: String, _ arguments: [String], stdoutPath: String = "/dev/null", stderrPath: String
    ) -> Result<pid_t, SpawnProblem> {
        #if canImport(Glibc)
            var actions = posix_spawn_file_actions_t()
        #else
            var actions: posix_spawn_file_actions_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environmentStrings().map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, envp)
        return spawned == 0 ? .success(pid) : .failure(SpawnProblem(code: spawned))
    }

    /// Waits for the program `pid` that ``start(_:_:stdoutPath:stderrPath:)`` started: `nil` on a clean exit with
    /// status 0, else what went wrong.
    static func wait(_ pid: pid_t) -> String? {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { break }
        }
        let signal = status & 0x7f
        let exitCode = (status >> 8) & 0xff
        if signal != 0 { return "killed by signal \(signal)" }
        return exitCode == 0 ? nil : "exit status \(exitCode)"
    }

    /// The current environment as `NAME=value` strings.
    private static func environmentStrings() -> [String] {
        var strings: [String] = []
        #if canImport(Glibc)
            var cursor = environ
        #else
            var cursor = _NSGetEnviron().pointee!
        #endif
        while let entry = cursor.pointee {
            strings.append(String(cString: entry))
            cursor += 1
        }
        return strings
    }
}
