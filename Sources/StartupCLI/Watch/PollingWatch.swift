import StartupManifest

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The fallback of ``FileChangeSource`` where the platform's notifications cannot be used: every
/// interval, the folders that could hold a match are listed and each entry's `lstat` compared with the
/// last look. It costs a look at every watched entry per interval, which is why it is said when used.
struct PollingWatch {
    /// What tells an entry's versions apart.
    private struct Stamp: Equatable {
        var modified: Int
        var modifiedNanoseconds: Int
        var changed: Int
        var size: Int64
        var inode: UInt64
        var mode: UInt32
    }

    private let root: String
    private let scope: WatchScope
    private let emit: @Sendable (FileChangeSource.Event) -> Void

    /// A poller of `scope`'s folders under `root`.
    init(root: String, scope: WatchScope, emit: @escaping @Sendable (FileChangeSource.Event) -> Void) {
        self.root = root
        self.scope = scope
        self.emit = emit
    }

    /// Looks every `interval` until `stop` is readable.
    func run(interval: Duration, stop: Int32, ready: () -> Void) {
        var last = look()
        ready()
        while !FileChangeSource.waitReadable(nil, stop: stop, timeout: interval) {
            let now = look()
            var changes: [WatchChange] = []
            for (path, stamp) in now where last[path] != stamp { changes.append(.path(path)) }
            for path in last.keys where now[path] == nil { changes.append(.path(path)) }
            last = now
            if !changes.isEmpty { emit(.changes(changes)) }
        }
    }

    /// Every entry of the watched folders, with its stamp.
    private func look() -> [WatchPath: Stamp] {
        var stamps: [WatchPath: Stamp] = [:]
        FolderScan.walk(root: root, from: WatchPath("."), scope: scope) { _, _, entries in
            for entry in entries where !scope.isIgnored(entry.path) {
                var info = stat()
                guard lstat(FolderScan.absolute(entry.path, root: root), &info) == 0 else { continue }
                #if canImport(Darwin)
                    let modified = (Int(info.st_mtimespec.tv_sec), Int(info.st_mtimespec.tv_nsec))
                    let changed = Int(info.st_ctimespec.tv_sec)
                #else
                    let modified = (Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec))
                    let changed = Int(info.st_ctim.tv_sec)
                #endif
                stamps[entry.path] = Stamp(
                    modified: modified.0, modifiedNanoseconds: modified.1, changed: changed, size: Int64(info.st_size),
                    inode: UInt64(info.st_ino), mode: UInt32(info.st_mode))
            }
            return true
        }
        return stamps
    }
}
