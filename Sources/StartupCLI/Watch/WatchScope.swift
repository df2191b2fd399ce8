import StartupManifest

/// Which folders a ``FileChangeSource`` watches: those under which some command's watch rules could
/// match, never `.git/`, `.startup/` or an excluded folder (the `--log-dir` one), nor anything under them.
struct WatchScope: Sendable {
    /// Every watching command's rules.
    let rules: [WatchRules]
    /// Folders never watched besides `.git/` and `.startup/`, relative to the manifest's folder.
    let excludedFolders: [WatchPath]

    /// Whether a path is in a folder never watched, or is one.
    func isIgnored(_ path: WatchPath) -> Bool {
        path.isNeverWatched || excludedFolders.contains { path.isInside($0) }
    }

    /// Whether to watch `folder`: it is not ignored, and something under it could concern a command.
    func shouldWatch(_ folder: WatchPath) -> Bool {
        !isIgnored(folder) && rules.contains { $0.couldMatch(under: folder) }
    }
}
