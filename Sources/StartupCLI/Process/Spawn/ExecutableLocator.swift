import StartupKit
import StartupSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Resolves argv[0] against the child's `PATH`, the way `execvp` would, without spawning anything.
enum ExecutableLocator {
    /// Search path used when the child's environment has no `PATH` (glibc's `execvp` default).
    static let defaultSearchPath = "/bin:/usr/bin"

    /// Returns the path to exec for `program`: unchanged if it contains a slash, else the first executable regular
    /// file in `searchPath`. Relative results are relative to `workingDirectory` (the child chdirs before exec).
    ///
    /// Absolute results are remembered per program and search path: a run of a thousand `true`
    /// commands searches `PATH` once, not a thousand times.
    static func locate(
        _ program: String,
        searchPath: String?,
        workingDirectory: String?
    ) -> Result<String, SpawnFailure> {
        if program.isEmpty { return .failure(.cannotRun(program, errno: ENOENT)) }
        if program.utf8.contains(UInt8(ascii: "/")) { return .success(program) }
        let key = [program, searchPath ?? defaultSearchPath]
        if let known = found.withLock({ $0[key] }) { return .success(known) }
        let result = search(program, searchPath: searchPath, workingDirectory: workingDirectory)
        if case .success(let path) = result, path.hasPrefix("/") {
            found.withLock { $0[key] = path }
        }
        return result
    }

    /// Absolute paths found so far, by program and search path.
    private static let found = Locked<[[String]: String]>([:])

    private static func search(
        _ program: String,
        searchPath: String?,
        workingDirectory: String?
    ) -> Result<String, SpawnFailure> {
        var sawPermissionDenied = false
        for entry in (searchPath ?? defaultSearchPath).split(separator: ":", omittingEmptySubsequences: false) {
            let directory = entry.isEmpty ? "." : String(entry)
            let candidate = directory.hasSuffix("/") ? directory + program : directory + "/" + program
            let probe: String
            if let workingDirectory, !candidate.hasPrefix("/") {
                probe = workingDirectory + "/" + candidate
            } else {
                probe = candidate
            }
            var info = stat()
            guard stat(probe, &info) == 0, (info.st_mode & mode_t(S_IFMT)) == mode_t(S_IFREG) else { continue }
            if access(probe, X_OK) == 0 { return .success(candidate) }
            sawPermissionDenied = true
        }
        return .failure(.cannotRun(program, errno: sawPermissionDenied ? EACCES : ENOENT))
    }
}
