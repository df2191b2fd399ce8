import StartupManifest

/// One change a ``FileChangeSource`` saw, relative to the manifest's folder.
enum WatchChange: Sendable, Hashable {
    /// A file or folder was written, made, removed, renamed or had its attributes changed.
    case path(WatchPath)
    /// A folder was removed or moved away: anything under it may have changed.
    case folder(WatchPath)
    /// The kernel's event queue overflowed: anything may have changed, anywhere.
    case overflow

    /// The path a reload line and a batch show: `src/app.py`, `src/old/` for a folder.
    var shown: String? {
        switch self {
        case .path(let path): path.text
        case .folder(let folder): folder.text + "/"
        case .overflow: nil
        }
    }
}
