import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A second `startup` process that stops what a run started if the run itself is killed outright (`kill -9`, the
/// OOM killer), when none of its own stops can run.
///
/// `startup run` starts it (``start(gracePeriod:)``) before any command, with the read end of a pipe as its standard
/// input; only the run holds the write end (close-on-exec, so no command inherits it). The run tells it, one line
/// each, of every command that ended by itself (``commandEnded(token:)``): what such a command left running stays, as
/// with make. The run's normal exit writes a last line (an `atexit` handler) and the guardian leaves at once. When the
/// pipe closes without that line, the run is gone: the guardian finds every process whose environment carries this
/// run's marker (``ProcessTree/runMarkerPrefix``) but for the commands that ended by themselves, with their
/// descendants and the groups and sessions they lead, and stops them as a stop would: SIGTERM at once, SIGKILL to
/// what is left once the grace period is over (``serveIfAsked(_:)``). It is in a session of its own and ignores the
/// terminal's signals, so a Ctrl-C that the run handles gently does not end it. Linux only (it reads `/proc`);
/// elsewhere nothing is started.
package enum RunGuardian {
    /// The hidden first argument that makes `startup` the guardian: `startup --guard-run <marker prefix> <grace ms>`.
    package static let argument = "--guard-run"

    /// The line that dismisses the guardian (the run exits by itself).
    static let dismissal = "exit"

    /// The start of the line that says a command ended by itself (followed by its spawn token).
    static let endedPrefix = "ended "

    /// The write end of the pipe to the guardian (non-blocking: the run never waits for it), or -1 when none was
    /// started.
    private static let pipeToGuardian = Atomic<Int32>(-1)

    /// Starts the guardian of this run, which stops its processes after `gracePeriod` if `startup` is killed; once
    /// per process (a second call does nothing). For the `startup` binary only (the guardian is `startup` itself,
    /// started again). A guardian that cannot be started is not an error: the run goes on unguarded.
    package static func start(gracePeriod: Duration) {
        #if os(Linux)
            guard pipeToGuardian.load(ordering: .acquiring) < 0 else { return }
            // Before any command starts, so none can inherit the ends in the moment they are not close-on-exec yet.
            guard let ends = makeCloseOnExecPipe(nonBlockingWrite: true) else { return }
            // At most an hour (`--grace-period`'s bound), so the milliseconds fit.
            let milliseconds = Int64(min(max(0, (gracePeriod / .milliseconds(1)).rounded(.up)), 3_600_000))
            let arguments = ["startup", argument, ProcessTree.runMarkerPrefix, String(milliseconds)]
            let spawned = spawn(arguments, standardInput: ends.read)
            _ = closeDescriptor(ends.read)
            guard spawned else {
                _ = closeDescriptor(ends.write)
                return
            }
            pipeToGuardian.store(ends.write, ordering: .releasing)
            atexit { RunGuardian.dismiss() }
        #endif
    }

    /// Tells the guardian that the command spawned with `token` ended by itself: what it left running is left there
    /// on purpose, also if the run is killed later. Never waits: if the guardian has not read the earlier lines (a
    /// full pipe), this one is lost, and what that command left would be stopped with the rest.
    static func commandEnded(token: UInt64) {
        send("\(endedPrefix)\(token)\n")
    }

    /// Tells the guardian that the run ends by itself: it leaves without stopping anything.
    private static func dismiss() {
        // The descriptor stays open (the exit closes it): another thread may still be writing a line to it.
        send(dismissal + "\n")
    }

    /// Writes `line` to the guardian, if there is one, without waiting.
    private static func send(_ line: String) {
        let descriptor = pipeToGuardian.load(ordering: .acquiring)
        guard descriptor >= 0 else { return }
        var line = line
        line.withUTF8 { bytes in _ = write(descriptor, bytes.baseAddress, bytes.count) }
    }

    #if os(Linux)
        /// Starts this very program (by its path, so the guardian's name in `ps` and `top` is the run's own) with
        /// `arguments`, reading `standardInput`, writing its messages to `startup`'s standard error, with nothing else
        /// open (every other descriptor of `startup` is close-on-exec).
        private static func spawn(_ arguments: [String], standardInput: Int32) -> Bool {
            var actions = posix_spawn_file_actions_t()
            guard posix_spawn_file_actions_init(&actions) == 0 else { return false }
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_adddup2(&actions, standardInput, 0)
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            var pid: pid_t = 0
            let argv = arguments.map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            return posix_spawn(&pid, ownPath(), &actions, nil, argv, environ) == 0
        }

        /// The path this program was started from, or `/proc/self/exe` where it cannot be read (or the file was
        /// replaced since).
        private static func ownPath() -> String {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
            guard count > 0 else { return "/proc/self/exe" }
            let path = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return path.hasSuffix(" (deleted)") ? "/proc/self/exe" : path
        }
    #endif
}
