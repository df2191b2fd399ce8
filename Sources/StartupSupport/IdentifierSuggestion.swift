/// Finds the existing identifier a person most likely meant when they typed an unknown one: the
/// plan builder for command ids, the manifest reader and the CLI for keys and names.
package enum IdentifierSuggestion {
    /// The closest of `candidates` to `typo`, or `nil` when none is close enough.
    ///
    /// Close means a small edit distance (at most a third of the length, and at least 1), or,
    /// failing that, `typo` being an abbreviation of the candidate (same first letter, its letters
    /// in order), as `"confg"` is of `"configuration"`. For many unknown ids among the same
    /// candidates, build one ``IdentifierSuggestionIndex``.
    ///
    /// - Complexity: O(*n* × *m* log(*n* × *m*)) for *n* candidates of length about *m*.
    package static func closest<S: Sequence>(to typo: String, in candidates: S) -> String? where S.Element == String {
        var index = IdentifierSuggestionIndex(Array(candidates))
        return index.closest(to: typo)
    }

    /// Optimal string alignment distance (insertions, deletions, substitutions, transpositions),
    /// giving up early once every path exceeds `limit`.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        let width = b.count + 1
        // Three rows in one scratch allocation: two rows back, the previous row, the current row.
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * width) { rows in
            var (previousPrevious, previous, current) = (0, width, 2 * width)
            for j in 0..<width { rows[previous + j] = j }
            for i in 1...a.count {
                rows[current] = i
                var rowMinimum = i
                for j in 1...b.count {
                    let cost = a[i - 1] == b[j - 1] ? 0 : 1
                    var value = min(rows[previous + j] + 1, rows[current + j - 1] + 1, rows[previous + j - 1] + cost)
                    if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                        value = min(value, rows[previousPrevious + j - 2] + 1)
                    }
                    rows[current + j] = value
                    rowMinimum = min(rowMinimum, value)
                }
                if rowMinimum > limit { return rowMinimum }
                (previousPrevious, previous, current) = (previous, current, previousPrevious)
            }
            return rows[previous + b.count]
        }
    }

    /// Whether `short` starts like `long` and its letters appear in `long` in order.
    static func isAbbreviation(_ short: [Unicode.Scalar], of long: [Unicode.Scalar]) -> Bool {
        guard short.count >= 2, short.count < long.count, short.first == long.first else { return false }
        var position = long.startIndex
        for scalar in short {
            guard let found = long[position...].firstIndex(of: scalar) else { return false }
            position = found + 1
        }
        return true
    }
}
