/// Finds the existing identifier a person most likely meant when they typed an unknown one.
/// Shared with the manifest reader (`package` access), which suggests keys the same way.
package enum IdentifierSuggestion {
    /// The closest of `candidates` to `typo`, or `nil` when none is close enough.
    ///
    /// Close means a small edit distance (at most a third of the length, and at least 1), or,
    /// failing that, `typo` being an abbreviation of the candidate (same first letter, its letters
    /// in order), as `"confg"` is of `"configuration"`.
    ///
    /// - Complexity: O(*n* × *m*²) for *n* candidates of length about *m*.
    static func closest<S: Sequence>(to typo: CommandID, in candidates: S) -> CommandID? where S.Element == CommandID {
        closest(to: typo.rawValue, in: candidates.lazy.map(\.rawValue)).map { CommandID($0) }
    }

    /// The closest of `candidates` to `typo`, or `nil` when none is close enough; see above.
    package static func closest<S: Sequence>(to typo: String, in candidates: S) -> String? where S.Element == String {
        let typed = Array(typo.unicodeScalars)
        guard !typed.isEmpty else { return nil }
        let limit = max(1, typed.count / 3)
        var best: (id: String, distance: Int)?
        var bestAbbreviated: (id: String, extra: Int)?
        for candidate in candidates {
            let scalars = Array(candidate.unicodeScalars)
            if abs(scalars.count - typed.count) <= limit {
                let distance = editDistance(typed, scalars, limit: limit)
                if distance <= limit, distance < best?.distance ?? .max {
                    best = (candidate, distance)
                }
            }
            if best == nil, isAbbreviation(typed, of: scalars) {
                let extra = scalars.count - typed.count
                if extra < bestAbbreviated?.extra ?? .max { bestAbbreviated = (candidate, extra) }
            }
        }
        return best?.id ?? bestAbbreviated?.id
    }

    /// Optimal string alignment distance (insertions, deletions, substitutions, transpositions),
    /// giving up early once every path exceeds `limit`.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = current[0]
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previousPrevious[j - 2] + 1)
                }
                current[j] = value
                rowMinimum = min(rowMinimum, value)
            }
            if rowMinimum > limit { return rowMinimum }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }

    /// Whether `short` starts like `long` and its letters appear in `long` in order.
    private static func isAbbreviation(_ short: [Unicode.Scalar], of long: [Unicode.Scalar]) -> Bool {
        guard short.count >= 2, short.count < long.count, short.first == long.first else { return false }
        var position = long.startIndex
        for scalar in short {
            guard let found = long[position...].firstIndex(of: scalar) else { return false }
            position = found + 1
        }
        return true
    }
}
