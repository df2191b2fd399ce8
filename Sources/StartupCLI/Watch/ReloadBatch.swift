import StartupKit
import StartupSupport

/// The changes one reload is for: the distinct changed paths in the order they first changed, and
/// whether changes were lost in an overflow (then any watched file may have changed).
package struct ReloadBatch: Sendable, Hashable {
    /// The changed paths, relative to the manifest's folder, each once; a folder removed or moved away ends in `/`.
    package private(set) var paths: [String] = []
    /// Whether the kernel's event queue overflowed: changes were lost, so the batch may not name them all.
    package private(set) var isOverflow = false
    /// The paths already in `paths`.
    private var seen: Set<String> = []

    /// An empty batch.
    package init() {}

    /// A batch of `paths` (and an overflow, with `isOverflow`).
    package init(paths: [String], isOverflow: Bool = false) {
        add(paths)
        if isOverflow { addOverflow() }
    }

    /// Whether nothing is in the batch.
    package var isEmpty: Bool { paths.isEmpty && !isOverflow }

    /// Adds paths not in the batch yet, in order.
    ///
    /// - Complexity: O(*n*) for *n* paths.
    package mutating func add(_ more: some Sequence<String>) {
        for path in more where seen.insert(path).inserted { paths.append(path) }
    }

    /// Marks changes lost in an overflow.
    package mutating func addOverflow() { isOverflow = true }

    /// Adds another batch's paths and overflow.
    package mutating func merge(_ other: ReloadBatch) {
        add(other.paths)
        if other.isOverflow { addOverflow() }
    }

    /// What a reload line says changed: `src/app.py`, `src/app.py +2 more`, or for an overflow without a
    /// path `changes too many to follow`.
    package var shown: String {
        guard let first = paths.first else { return isOverflow ? "changes too many to follow" : "nothing" }
        let more = paths.count - 1 + (isOverflow ? 1 : 0)
        return MessageQuoting.escaped(first) + (more > 0 ? (isOverflow ? " and more" : " +\(more) more") : "")
    }
}
