import StartupManifest

/// One command's `"watch"`, compiled: a changed path is the command's when some include matches it and no
/// exclude does (``WatchPattern`` matches a path or a folder that holds it).
struct WatchRules: Sendable {
    /// The patterns without `!`.
    let includes: [WatchPattern]
    /// The patterns written with `!`.
    let excludes: [WatchPattern]

    /// Compiles a command's watch rules.
    ///
    /// - Throws: ``WatchPatternError`` for a path that is not one (a decoded manifest has none).
    init(_ watch: ManifestWatch) throws(WatchPatternError) {
        var includes: [WatchPattern] = []
        var excludes: [WatchPattern] = []
        for written in watch.paths {
            let pattern = try WatchPattern(written)
            if pattern.isExclude { excludes.append(pattern) } else { includes.append(pattern) }
        }
        self.includes = includes
        self.excludes = excludes
    }

    /// Whether a change of `path` concerns the command.
    ///
    /// - Complexity: O(*p*) pattern matches for *p* patterns.
    func matches(_ path: WatchPath) -> Bool {
        !path.isNeverWatched && includes.contains { $0.matches(path) } && !excludes.contains { $0.matches(path) }
    }

    /// Whether a change somewhere under the folder `folder` (a folder removed or moved away, whose files
    /// were not listed) could concern the command.
    func couldMatch(under folder: WatchPath) -> Bool {
        !folder.isNeverWatched && includes.contains { $0.couldMatch(under: folder) } && !excludes.contains { $0.matches(folder) }
    }

    /// Whether `change` concerns the command: a path it matches, a folder under which it could match
    /// something, or changes lost in an overflow (any of them could have been the command's).
    func concerns(_ change: WatchChange) -> Bool {
        switch change {
        case .path(let path): matches(path)
        case .folder(let folder): couldMatch(under: folder)
        case .overflow: true
        }
    }
}
