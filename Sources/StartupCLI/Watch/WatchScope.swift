import StartupManifest

/// Which folders a ``FileChangeSource`` watches: those under which some command's watch rules could
/// match, never `.git/`, `.startup/` or an excluded path (the `--log-dir` folder, the files the run writes),
/// nor anything under them.
struct WatchScope: Sendable {
    /// Every watching command's rules.
    let rules: [WatchRules]
    /// Files and folders never watched besides `.git/` and `.startup/`, relative to the manifest's folder.
    let excludedPaths: [WatchPath]

    /// Whether a path is in a folder never watched, or is one.
    func isIgnored(_ path: WatchPath) -> Bool {
        path.isNeverWatched || excludedPaths.contains { path.isInside($0) }
    }

    /// Whether to watch `folder`: it is not ignored, and something under it could concern a command.
    func shouldWatch(_ folder: WatchPath) -> Bool {
        !isIgnored(folder) && rules.contains { $0.couldMatch(under: folder) }
    }
}
