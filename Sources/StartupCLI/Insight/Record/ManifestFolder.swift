#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The folder a manifest stands for: what its `cwd` values are relative to, where commands start, and where
/// `.startup/` (the last run's report, the trace) goes.
///
/// A manifest read from standard input (`-f -`), from something that is not a regular file (a pipe or a FIFO:
/// `-f <(generate-manifest)` gives `/dev/fd/63`), or from under `/dev` or `/proc` (`-f /dev/stdin`) has no folder
/// of its own: the current directory stands in. A manifest reached through a symbolic link is what the link points
/// to, in the link's folder.
enum ManifestFolder {
    /// The folder's path: the manifest's folder (absolute), or the current directory.
    static func path(forManifest file: String) -> String {
        hasFolderOfItsOwn(file)
            ? FilePaths.folder(of: file)
            : FilePaths.currentDirectory() ?? "."
    }

    /// The folder as the user would write it before a file name: `""` for a manifest given as `commands.json` (or
    /// one without a folder of its own), `app/` for `app/commands.json`, `/` for `/commands.json`.
    static func prefix(forManifest file: String) -> String {
        guard hasFolderOfItsOwn(file) else { return "" }
        let folder = file.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return file.hasPrefix("/") && folder.isEmpty ? "/" : folder.isEmpty ? "" : folder + "/"
    }

    /// Whether `file` is a regular file that is not a stand-in for a descriptor: one in `/dev` or `/dev/fd`
    /// (`/dev/stdin`), or under `/proc` (`/proc/self/fd/0`). A folder below `/dev`, such as `/dev/shm`, is a
    /// folder of its own. A missing file counts: its error is reported where it is read.
    static func hasFolderOfItsOwn(_ file: String) -> Bool {
        guard file != "-" else { return false }
        let folder = FilePaths.standardized(FilePaths.folder(of: file))
        if folder == "/dev" || folder == "/dev/fd" || folder == "/proc" || folder.hasPrefix("/proc/") {
            return false
        }
        // stat, not FileManager's attributes, which also look up the owner's user and group names.
        var info = stat()
        guard stat(file, &info) == 0 else { return true }
        return (info.st_mode & S_IFMT) == S_IFREG
    }
}
