import StartupKit
import StartupSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starts one child (``ChildSpawn``): own process group, default signals, stdin from `/dev/null`, chosen output.
enum ChildLauncher {
    /// How the child's working directory is entered.
    enum DirectoryStrategy: Sendable {
        /// The child enters the directory itself where it can (``ChildSpawn/changesDirectory``), else `shellFallback`.
        case automatic
        /// Exec `/bin/sh -c 'CDPATH= cd -- "$1" && shift && exec "$@"'` (for C libraries without
        /// `posix_spawn_file_actions_addchdir_np`).
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

        var path = executable
        var arguments = spec.arguments
        var setup = ChildSetup(
            directory: nil, output: spec.output, captureDescriptor: captureDescriptor, isForeground: spec.foreground)
        if let directory = spec.workingDirectory {
            if directoryStrategy == .automatic, ChildSpawn.changesDirectory {
                setup.directory = directory
            } else {
                path = CommandLineSplitter.shellPath
                arguments =
                    [path, "-c", changeDirectoryScript, "sh", directory, executable]
                    + spec.arguments.dropFirst()
            }
        }

        let argv = CStringArray(arguments)
        let result = spec.environment.withCStrings(adding: environmentEntry) { envp -> Result<pid_t, ChildSpawn.SpawnError>? in
            guard let envp, !argv.hasEmbeddedNul else { return nil }
            return argv.withPointers { argv in ChildSpawn.spawn(path, argv: argv, envp: envp, setup: setup) }
        }
        switch result {
        case nil:
            return .failure(
                SpawnFailure(
                    errno: EINVAL, message: "cannot run \(MessageQuoting.quoted(program)): argument or environment contains a NUL byte"))
        case .success(let pid)?:
            return .success(pid)
        case .failure(let error)?:
            if let directory = setup.directory, let problem = directoryProblem(directory) {
                return .failure(.cannotChangeDirectory(directory, errno: problem))
            }
            return .failure(.cannotRun(program, errno: error.code, arguments: arguments, environment: spec.environment.variables))
        }
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
