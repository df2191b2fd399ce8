/// A path relative to the manifest's folder, split into its names once, to be matched against every
/// command's ``WatchPattern``s: `src/app.py` is `["src", "app.py"]`, and `.` (the folder itself) has none.
package struct WatchPath: Sendable, Hashable {
    /// The path's names, as bytes.
    package let names: [[UInt8]]

    /// Splits a relative path at its slashes, skipping empty names and `.`.
    package init(_ relative: String) {
        self.init(names: relative.utf8.split(separator: UInt8(ascii: "/")).map(Array.init))
    }

    /// A path of `names` (empty and `.` names are skipped).
    package init(names: [[UInt8]]) {
        self.names = names.filter { !$0.isEmpty && $0 != [UInt8(ascii: ".")] }
    }

    /// The path as text: `src/app.py`, or `.` for the manifest's folder.
    package var text: String {
        names.isEmpty ? "." : names.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "/")
    }

    /// Whether the path is in a folder that is never watched (``WatchPattern/neverWatchedFolders``, at any
    /// depth: a nested repository's `.git/`, another manifest's `.startup/`), or is one.
    package var isNeverWatched: Bool {
        names.contains { name in WatchPattern.neverWatchedFolders.contains { Array($0.utf8) == name } }
    }

    /// Whether the path is `folder` or under it.
    package func isInside(_ folder: WatchPath) -> Bool {
        names.count >= folder.names.count && names.starts(with: folder.names)
    }
}
