#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The folder a control socket goes in, made and checked: `.startup` beside the manifest, or the per-user
/// fallback, which must be a folder (not a link) of this user's own with mode 0700, so that no other user can
/// put a socket there for a client to find.
enum ControlSocketFolder {
    /// Makes the folder of `path` if it is missing, and checks the per-user one.
    static func make(_ path: ControlSocketPath) throws(ControlServerError) {
        if mkdir(path.folder, path.isPerUserFolder ? 0o700 : 0o755) != 0, errno != EEXIST {
            throw .cannotListen("make the folder", path.folder, Errno(errno))
        }
        if let problem = problem(with: path) { throw ControlServerError(code: .cannotListen, message: problem, pid: nil) }
    }

    /// Why the per-user folder of `path` is not safe to use, or `nil` when it is (or `path` is beside its manifest).
    static func problem(with path: ControlSocketPath) -> String? {
        guard path.isPerUserFolder else { return nil }
        var info = stat()
        guard lstat(path.folder, &info) == 0 else { return nil }
        guard info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid(), info.st_mode & 0o077 == 0 else {
            return "\(path.folder) is not a folder of your own with mode 0700, so another user may have made it; "
                + "remove it, or set XDG_RUNTIME_DIR to a folder of your own"
        }
        return nil
    }
}
