import StartupKit
import StartupSupport

#if os(Linux) && (arch(x86_64) || arch(arm64))
    import CStartupProcess
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a child is set up between its start and its exec.
struct ChildSetup {
    /// The directory the child enters first, or `nil` to stay in ours.
    var directory: String?
    /// Where its stdout and stderr go; stdin is `/dev/null` unless it is a foreground child.
    var output: OutputDestination
    /// The descriptor of its capture file, for `.capture`.
    var captureDescriptor: Int32?
    /// A foreground child: it keeps our process group, our standard input, and the signals `startup` was started
    /// with ignored (``IgnoredAtStart``); any other child leads a group of its own with every signal at its default.
    var isForeground: Bool
}

/// Makes the system call that starts a child: on Linux (x86_64 and arm64) `startup_spawn` (a clone that shares our
/// memory until the exec, on a stack each spawning thread keeps, as `posix_spawn` does but without mapping a new
/// stack each time), elsewhere `posix_spawn`. Both start the child with an empty signal mask, descriptors from 3 up
/// closed, and stdin, stdout and stderr as the setup says.
enum ChildSpawn {
    /// Whether a child can enter its directory itself; otherwise a shell does it (a C library without
    /// `posix_spawn_file_actions_addchdir_np`).
    static var changesDirectory: Bool {
        #if os(Linux) && (arch(x86_64) || arch(arm64))
            true
        #else
            SpawnExtensions.addChdir != nil
        #endif
    }

    /// Starts `path` with `argv` and `envp` as `setup` says: the child's pid, or an errno.
    static func spawn(
        _ path: String, argv: UnsafePointer<UnsafeMutablePointer<CChar>?>, envp: UnsafePointer<UnsafeMutablePointer<CChar>?>,
        setup: ChildSetup
    ) -> Result<pid_t, SpawnError> {
        #if os(Linux) && (arch(x86_64) || arch(arm64))
            spawnByClone(path, argv: argv, envp: envp, setup: setup)
        #else
            spawnByPosixSpawn(path, argv: argv, envp: envp, setup: setup)
        #endif
    }

    /// An errno from starting a child.
    struct SpawnError: Error {
        /// The errno.
        let code: Int32
    }

    #if os(Linux) && (arch(x86_64) || arch(arm64))
        /// `/dev/null` for children to get as stdin or output, opened for reading and for writing at first use and
        /// kept, close-on-exec and above 2 (so no child's set-up overwrites it before copying it); -1 until opened.
        /// Guards the two descriptors; opening is done outside it.
        private static let nullDevice = Locked<(reading: Int32, writing: Int32)>((-1, -1))

        /// `/dev/null` opened for reading (`O_RDONLY`) or writing: the kept descriptor, else one opened now and kept
        /// (a failure, such as too many open files, is this spawn's alone; the next one tries again).
        private static func nullDescriptor(_ mode: Int32) -> Result<Int32, SpawnError> {
            let reading = mode == O_RDONLY
            let kept = nullDevice.withLock { reading ? $0.reading : $0.writing }
            if kept >= 0 { return .success(kept) }
            let opened = open("/dev/null", mode | O_CLOEXEC)
            guard opened >= 0 else { return .failure(SpawnError(code: errno)) }
            var descriptor = opened
            if opened < 3 {
                descriptor = fcntl(opened, F_DUPFD_CLOEXEC, 3)
                let code = errno
                _ = close(opened)
                guard descriptor >= 0 else { return .failure(SpawnError(code: code)) }
            }
            let winner = nullDevice.withLock { kept in
                let current = reading ? kept.reading : kept.writing
                guard current < 0 else { return current }
                if reading { kept.reading = descriptor } else { kept.writing = descriptor }
                return descriptor
            }
            if winner != descriptor { _ = close(descriptor) }
            return .success(winner)
        }

        private static func spawnByClone(
            _ path: String, argv: UnsafePointer<UnsafeMutablePointer<CChar>?>, envp: UnsafePointer<UnsafeMutablePointer<CChar>?>,
            setup: ChildSetup
        ) -> Result<pid_t, SpawnError> {
            var raw = startup_spawn_setup()
            do {
                raw.input = setup.isForeground ? -1 : try nullDescriptor(O_RDONLY).get()
                switch setup.output {
                case .inherit:
                    (raw.output, raw.error) = (-1, -1)
                case .discard:
                    let null = try nullDescriptor(O_WRONLY).get()
                    (raw.output, raw.error) = (null, null)
                case .capture:
                    guard let descriptor = setup.captureDescriptor else { return .failure(SpawnError(code: EBADF)) }
                    (raw.output, raw.error) = (descriptor, descriptor)
                case .descriptor(let descriptor):
                    (raw.output, raw.error) = (descriptor, descriptor)
                }
            } catch {
                return .failure(error)
            }
            raw.own_group = setup.isForeground ? 0 : 1
            raw.kept_signals = setup.isForeground ? IgnoredAtStart.signals.reduce(0) { $0 | 1 << UInt64($1 - 1) } : 0
            var pid: pid_t = 0
            let code = withDirectory(setup.directory) { directory in
                raw.directory = directory
                return startup_spawn(&pid, path, argv, envp, &raw)
            }
            return code == 0 ? .success(pid) : .failure(SpawnError(code: code))
        }

        /// Calls `body` with `directory` as a C string, or `nil`.
        private static func withDirectory<R>(_ directory: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
            guard let directory else { return body(nil) }
            return directory.withCString { body($0) }
        }
    #else
        private static func spawnByPosixSpawn(
            _ path: String, argv: UnsafePointer<UnsafeMutablePointer<CChar>?>, envp: UnsafePointer<UnsafeMutablePointer<CChar>?>,
            setup: ChildSetup
        ) -> Result<pid_t, SpawnError> {
            var fileActions = SpawnFileActions()
            guard posix_spawn_file_actions_init(&fileActions) == 0 else { return .failure(SpawnError(code: ENOMEM)) }
            defer { posix_spawn_file_actions_destroy(&fileActions) }
            var attributes = SpawnAttributes()
            guard posix_spawnattr_init(&attributes) == 0 else { return .failure(SpawnError(code: ENOMEM)) }
            defer { posix_spawnattr_destroy(&attributes) }
            if let directory = setup.directory {
                guard let addChdir = SpawnExtensions.addChdir else { return .failure(SpawnError(code: ENOSYS)) }
                let code = addChdir(&fileActions, directory)
                if code != 0 { return .failure(SpawnError(code: code)) }
            }
            var code = configureFileActions(&fileActions, setup: setup)
            if code == 0 { code = configureAttributes(&attributes, ownGroup: !setup.isForeground) }
            if code != 0 { return .failure(SpawnError(code: code)) }
            var pid: pid_t = 0
            let result = posix_spawn(&pid, path, &fileActions, &attributes, argv, envp)
            return result == 0 ? .success(pid) : .failure(SpawnError(code: result))
        }

        /// Adds stdin, stdout/stderr and close-stray-descriptor actions; returns 0 or an errno.
        private static func configureFileActions(_ fileActions: inout SpawnFileActions, setup: ChildSetup) -> Int32 {
            var codes: [Int32] =
                setup.isForeground ? [] : [posix_spawn_file_actions_addopen(&fileActions, 0, "/dev/null", O_RDONLY, 0)]
            switch setup.output {
            case .inherit:
                break
            case .discard:
                codes.append(posix_spawn_file_actions_addopen(&fileActions, 1, "/dev/null", O_WRONLY, 0))
                codes.append(posix_spawn_file_actions_adddup2(&fileActions, 1, 2))
            case .capture:
                guard let captureDescriptor = setup.captureDescriptor else { return EBADF }
                codes.append(posix_spawn_file_actions_adddup2(&fileActions, captureDescriptor, 1))
                codes.append(posix_spawn_file_actions_adddup2(&fileActions, captureDescriptor, 2))
            case .descriptor(let descriptor):
                codes.append(posix_spawn_file_actions_adddup2(&fileActions, descriptor, 1))
                codes.append(posix_spawn_file_actions_adddup2(&fileActions, descriptor, 2))
            }
            // Everything we open is O_CLOEXEC already; this also drops descriptors other code leaked without it.
            if let addClosefrom = SpawnExtensions.addClosefrom {
                codes.append(addClosefrom(&fileActions, 3))
            }
            return codes.first { $0 != 0 } ?? 0
        }

        /// Puts the child in its own process group (unless `ownGroup` is false: a foreground child) with an empty
        /// signal mask and default signal dispositions, but for a foreground child the signals `startup` was started
        /// with ignored (``IgnoredAtStart``).
        private static func configureAttributes(_ attributes: inout SpawnAttributes, ownGroup: Bool) -> Int32 {
            var noSignals = sigset_t()
            sigemptyset(&noSignals)
            // Ignored dispositions survive exec (e.g. SIGPIPE, which Swift programs often ignore, and `startup run`
            // while it handles interrupts), so every signal is reset.
            var allSignals = sigset_t()
            sigfillset(&allSignals)
            if !ownGroup {
                for signal in IgnoredAtStart.signals { sigdelset(&allSignals, signal) }
            }
            let flags = (ownGroup ? POSIX_SPAWN_SETPGROUP : 0) | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
            let codes = [
                posix_spawnattr_setflags(&attributes, Int16(flags)),
                posix_spawnattr_setpgroup(&attributes, 0),
                posix_spawnattr_setsigmask(&attributes, &noSignals),
                posix_spawnattr_setsigdefault(&attributes, &allSignals),
            ]
            return codes.first { $0 != 0 } ?? 0
        }
    #endif
}
