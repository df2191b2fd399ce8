import StartupKit
import StartupSupport

/// Why a path or glob of `"watch"` is not one: an empty pattern, an absolute one, one whose `..` leaves the
/// manifest's folder, one under `.git/` or `.startup/`, or an invalid glob.
package struct WatchPatternError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The pattern as written.
    package var written: String
    /// What is wrong, after the pattern: `has a "[" without its "]"; ...`.
    package var reason: String

    /// `"src/[ab" has a "[" without its "]"; ...`.
    package var description: String { "\(MessageQuoting.quoted(written)) \(reason)" }
}
