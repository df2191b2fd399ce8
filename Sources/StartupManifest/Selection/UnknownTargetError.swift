import StartupKit
import StartupSupport

/// Targets given to ``Manifest/selecting(_:)`` that the manifest does not have, each with the
/// closest id it does have.
public struct UnknownTargetError: Error, Hashable, Sendable, CustomStringConvertible {
    /// One unknown target and the id the person most likely meant.
    public struct Target: Hashable, Sendable {
        /// The target as given.
        public let id: CommandID
        /// The closest command id of the manifest, if one is close enough.
        public let suggestion: CommandID?

        /// Creates an unknown target.
        public init(id: CommandID, suggestion: CommandID?) {
            self.id = id
            self.suggestion = suggestion
        }
    }

    /// Every unknown target, in the order given, each once.
    public let targets: [Target]

    /// Creates the error.
    public init(targets: [Target]) {
        self.targets = targets
    }

    /// One line per target: `unknown target "fist-screen" (did you mean "first-screen"?)`, ids
    /// escaped.
    public var description: String {
        targets.map { target in
            "unknown target \(MessageQuoting.quoted(target.id))"
                + (target.suggestion.map { " (did you mean \(MessageQuoting.quoted($0))?)" } ?? "")
        }.joined(separator: "\n")
    }
}
