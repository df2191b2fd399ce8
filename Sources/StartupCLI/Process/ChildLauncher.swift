import StartupKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starts one child with `posix_spawn`: own process group, default signals, stdin from `/dev/null`, chosen output.
enum ChildLauncher {
    /// How the child's working directory is entered.
    enum DirectoryStrategy: Sendable {
        /// `posix_spawn_file_actions_addchdir_np` when the C library has it, else `shellFallback`.
        case automatic
        /// Exec `/bin/sh -c 'CDPATH= cd -- "$1" && shift && exec "$@"'` (for C libraries without addchdir_np).
        case shellFallback
    }

    /// Script used by `DirectoryStrategy.shellFallback`; `$1` is the directory, the rest is the argv to exec.
    static let changeDirectoryScript = "CDPATH= cd -- \"$1\" && shift && exec \"$@\""

    /// Spawns `spec`, sending stdout+stderr to `captureDescriptor` when `spec.output` is `.capture`, with
    /// `environmentEntry` (`NAME=value`) added to its environment.
    static func launch(
        _ spec: ProcessSpec,
        adding environmentEntry: String? = nil,
        captureDescriptor: Int32?,
        directoryStrategy: DirectoryStrategy = .automatic
    ) -> Result<pid_t, SpawnFailure> {
        guard let program = spec.arguments.first else {
            return .failure(SpawnFailure(errno: EINVAL, message: "cannot run an empty command"))
        }
        let executable: String
        switch ExecutableLocator.locate(
            program, searchPath: spec.environment["PATH"], workingDirectory: spec.workingDirectory)
        {
        case .success(let path): executable = path
        case .failure(let failure): return .failure(failure)
        }

        var fileActions = SpawnFileActions()
        guard posix_spawn_file_actions_init(&fileActions) == 0 else {
            return .failure(.cannotRun(program, errno: ENOMEM))
        }
        defer { posix_spawn_file_actions_destroy(&fileActions) }
        var attributes = SpawnAttributes()
        guard posix_spawnattr_init(&attributes) == 0 else {
            return .failure(.cannotRun(program, errno: ENOMEM))
        }
        defer { posix_spawnattr_destroy(&attributes) }

        var path = executable
        var arguments = spec.arguments
        var usesNativeChdir = false
        if let directory = spec.workingDirectory {
            if directoryStrategy == .automatic, let addChdir = SpawnExtensions.addChdir {
                let code = addChdir(&fileActions, directory)
                if code != 0 { return .failure(.cannotChangeDirectory(directory, errno: code)) }
                usesNativeChdir = true
            } else {
                path = CommandLineSplitter.shellPath
                arguments =
                    [path, "-c", changeDirectoryScript, "sh", directory, executable]
                    + spec.arguments.dropFirst()
            }
        }

        var code = configureFileActions(
            &fileActions, output: spec.output, captureDescriptor: captureDescriptor,
            inheritsInput: spec.foreground)
        if code == 0 { code = configureAttributes(&attributes, ownGroup: !spec.foreground) }
        if code != 0 { return .failure(.cannotRun(program, errno: code)) }

        let argv = CStringArray(arguments)
        var pid: pid_t = 0
        let result = spec.environment.withCStrings(adding: environmentEntry) { envp -> Int32? in
            guard let envp, !argv.hasEmbeddedNul else { return nil }
            return argv.withPointers { argv in posix_spawn(&pid, path, &fileActions, &attributes, argv, envp) }
        }
        guard let result else {
            return .failure(
                SpawnFailure(
                    errno: EINVAL, message: "cannot run \(MessageQuoting.quoted(program)): argument or environment contains a NUL byte"))
        }
        if result != 0 {
            if usesNativeChdir, let directory = spec.workingDirectory, let problem = directoryProblem(directory) {
                return .failure(.cannotChangeDirectory(directory, errno: problem))
            }
            return .failure(.cannotRun(program, errno: result))
        }
        return .success(pid)
    }

    /// Adds stdin, stdout/stderr and close-stray-descriptor actions; returns 0 or an errno.
    private static func configureFileActions(
        _ fileActions: inout SpawnFileActions,
        output: OutputDestination,
        captureDescriptor: Int32?,
        inheritsInput: Bool
    ) -> Int32 {
        var codes: [Int32] = inheritsInput ? [] : [posix_spawn_file_actions_addopen(&fileActions, 0, "/dev/null", O_RDONLY, 0)]
        switch output {
        case .inherit:
            break
        case .discard:
            codes.append(posix_spawn_file_actions_addopen(&fileActions, 1, "/dev/null", O_WRONLY, 0))
            codes.append(posix_spawn_file_actions_adddup2(&fileActions, 1, 2))
        case .capture:
            guard let captureDescriptor else { return EBADF }
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
    /// signal mask and default signal dispositions, but for a foreground child the signals `startup` was started with
    /// ignored (``IgnoredAtStart``).
    private static func configureAttributes(_ attributes: inout SpawnAttributes, ownGroup: Bool) -> Int32 {
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        // Ignored dispositions survive exec (e.g. SIGPIPE, which Swift programs often ignore, and SIGINT
        // and SIGTERM while `startup run` handles them), so every signal is reset (but glibc's two internal ones,
        // which no set can name and its child leaves ignored). It is also the fewest system
        // calls: glibc's child sets each signal of this set once, but asks after each other one first (and
        // sets it too when it has a handler), 107 calls where this takes 64.
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
            posix_spawnattr_setsigdefault(&attributes, &allSignals),  // all but those a foreground child keeps ignored
        ]
        return codes.first { $0 != 0 } ?? 0
    }

    /// The errno explaining why `directory` cannot be entered, or `nil` if it looks usable.
    private static func directoryProblem(_ directory: String) -> Int32? {
        var info = stat()
        if stat(directory, &info) != 0 { return errno }
        if (info.st_mode & mode_t(S_IFMT)) != mode_t(S_IFDIR) { return ENOTDIR }
        if access(directory, X_OK) != 0 { return errno }
        return nil
    }
}
