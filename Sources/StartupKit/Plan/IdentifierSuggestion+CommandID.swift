import StartupSupport

extension IdentifierSuggestion {
    /// The command id of `candidates` closest to `typo`, or `nil` when none is close enough, as
    /// ``IdentifierSuggestion/closest(to:in:)`` finds it for their text.
    ///
    /// - Complexity: O(*n* × *m* log(*n* × *m*)) for *n* candidates of length about *m*.
    package static func closest<S: Sequence>(to typo: CommandID, in candidates: S) -> CommandID? where S.Element == CommandID {
        closest(to: typo.rawValue, in: candidates.lazy.map(\.rawValue)).map { CommandID($0) }
    }
}
