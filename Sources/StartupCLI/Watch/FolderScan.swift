import StartupManifest

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Walks the folders a ``WatchScope`` watches, without following symbolic links.
enum FolderScan {
    /// What a folder holds, by kind.
    struct Entry {
        var path: WatchPath
        var isFolder: Bool
    }

    /// The entries of the folder at `absolute` (`path` relative to the manifest's folder): its files and
    /// folders, without `.` and `..`; none if it cannot be read.
    static func entries(of path: WatchPath, absolute: String) -> [Entry] {
        guard let directory = opendir(absolute) else { return [] }
        defer { closedir(directory) }
        var entries: [Entry] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name == [UInt8(ascii: ".")] || name == [UInt8(ascii: "."), UInt8(ascii: ".")] { continue }
            var isFolder = Int32(entry.pointee.d_type) == Int32(DT_DIR)
            if Int32(entry.pointee.d_type) == Int32(DT_UNKNOWN) {
                var info = stat()
                isFolder = lstat(absolute + "/" + String(decoding: name, as: UTF8.self), &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
            }
            entries.append(Entry(path: WatchPath(names: path.names + [name]), isFolder: isFolder))
        }
        return entries
    }

    /// Visits `start` and every folder under it that `scope` watches, depth first, parents before their
    /// folders; `visit` gets each folder and its entries and says whether to go into its subfolders.
    static func walk(
        root: String, from start: WatchPath, scope: WatchScope, visit: (WatchPath, String, [Entry]) -> Bool
    ) {
        var stack = [start]
        while let folder = stack.popLast() {
            guard scope.shouldWatch(folder) else { continue }
            let absolute = Self.absolute(folder, root: root)
            let entries = entries(of: folder, absolute: absolute)
            guard visit(folder, absolute, entries) else { continue }
            stack += entries.lazy.filter(\.isFolder).map(\.path).reversed()
        }
    }

    /// The absolute path of `path` under `root`.
    static func absolute(_ path: WatchPath, root: String) -> String {
        path.names.isEmpty ? root : root + "/" + path.text
    }
}
