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
/// input; only the run holds the write end (close-on-exec, so no command inherits it). The run's normal exit writes
/// one byte (an `atexit` handler) and the guardian leaves at once: what a command left running on purpose stays, as
/// with make. When the pipe closes without that byte, the run is gone: the guardian finds every process whose
/// environment carries this run's marker (``ProcessTree/runMarkerPrefix``), with their descendants and the groups and
/// sessions they lead, and stops them as a stop would: SIGTERM within a second, SIGKILL to what is left once the
/// grace period is over (``serve(_:)``). It is in a session of its own and ignores the terminal's signals, so a
/// Ctrl-C that the run handles gently does not end it. Linux only (it reads `/proc`); elsewhere nothing is started.
package enum RunGuardian {
    /// The hidden first argument that makes `startup` the guardian: `startup --guard-run <marker prefix> <grace ms>`.
    package static let argument = "--guard-run"

    /// The write end of the pipe to the guardian, or -1 when none was started.
    private static let pipeToGuardian = Atomic<Int32>(-1)

    /// Starts the guardian of this run, which stops its processes after `gracePeriod` if `startup` is killed; once
    /// per process (a second call does nothing). A guardian that cannot be started is not an error: the run goes on
    /// unguarded, as before.
    package static func start(gracePeriod: Duration) {
        #if os(Linux)
            guard pipeToGuardian.load(ordering: .acquiring) < 0 else { return }
            // Before any command starts, so none can inherit the ends in the moment they are not close-on-exec yet.
            guard let ends = makeCloseOnExecPipe() else { return }
            let milliseconds = max(0, gracePeriod.components.seconds.multipliedReportingOverflow(by: 1_000).partialValue)
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

    /// Tells the guardian that the run ends by itself: it leaves without stopping anything.
    private static func dismiss() {
        let descriptor = pipeToGuardian.exchange(-1, ordering: .acquiringAndReleasing)
        guard descriptor >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(descriptor, &byte, 1)
    }

    #if os(Linux)
        /// Starts `/proc/self/exe` with `arguments`, reading `standardInput`, writing its messages to `startup`'s
        /// standard error, with nothing else open (every other descriptor of `startup` is close-on-exec).
        private static func spawn(_ arguments: [String], standardInput: Int32) -> Bool {
            var actions = posix_spawn_file_actions_t()
            guard posix_spawn_file_actions_init(&actions) == 0 else { return false }
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_adddup2(&actions, standardInput, 0)
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            var pid: pid_t = 0
            let argv = arguments.map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            return posix_spawn(&pid, "/proc/self/exe", &actions, nil, argv, environ) == 0
        }
    #endif
}
