/// The candidates of ``IdentifierSuggestion``, indexed once so that suggesting for thousands of
/// unknown ids stays near-linear, with one cached answer per unknown id.
///
/// The answer is the one a full scan gives (the nearest by edit distance, earliest first; failing
/// that the shortest candidate the id abbreviates) in these cases: a candidate one edit away
/// (found exactly through an index of every candidate with one character deleted), or at most
/// ``comparisonLimit`` candidates of a length within reach. Beyond that, only the
/// ``comparisonLimit`` candidates sharing the most character pairs with the unknown id are
/// compared, so one suggestion never costs more than a bounded amount of work.
package struct IdentifierSuggestionIndex {
    /// The most candidates compared by edit distance, and checked as abbreviations, per unknown id.
    package static let comparisonLimit = 64
    /// The most index entries read to rank candidates by shared character pairs, per unknown id.
    static let postingLimit = 512
    /// Buckets of the character histograms that rule candidates out before an edit distance.
    private static let histogramWidth = 64

    private let names: [String]
    private let scalars: [[Unicode.Scalar]]
    /// The length of each candidate in scalars.
    private let lengths: [Int]
    /// Each candidate's scalars counted into ``histogramWidth`` buckets, one row per candidate.
    private let histograms: [UInt8]
    /// Every candidate, and every candidate with one scalar deleted, by hash; sorted.
    private let oneDeletion: [(key: UInt64, position: Int32)]
    /// Positions by length in scalars, ascending.
    private let byLength: [Int: [Int32]]
    /// Positions by first scalar, shortest first, then earliest.
    private let byFirstScalar: [Unicode.Scalar: [Int32]]
    /// Positions by pair of adjacent scalars, ascending.
    private let byPair: [UInt64: [Int32]]
    private var cache: [String: Int?] = [:]
    /// Scratch: shared pairs per candidate while ranking, zero between searches.
    private var sharedPairs: [UInt16]

    /// How many candidates have been compared with an unknown id so far (by edit distance, by
    /// character counts, as an abbreviation), for tests of the bound.
    package private(set) var comparisons = 0

    /// Indexes `candidates`, whose order breaks ties (earlier wins).
    ///
    /// - Complexity: O(*n* × *m* log(*n* × *m*)) for *n* candidates of length about *m*.
    package init(_ candidates: [String]) {
        names = candidates
        scalars = candidates.map { Array($0.unicodeScalars) }
        var oneDeletion: [(key: UInt64, position: Int32)] = []
        var byLength: [Int: [Int32]] = [:]
        var byFirstScalar: [Unicode.Scalar: [Int32]] = [:]
        var byPair: [UInt64: [Int32]] = [:]
        for (position, text) in scalars.enumerated() {
            let position = Int32(position)
            for key in Self.deletionKeys(text) { oneDeletion.append((key, position)) }
            byLength[text.count, default: []].append(position)
            if let first = text.first { byFirstScalar[first, default: []].append(position) }
            for pair in Set(Self.pairs(text)) { byPair[pair, default: []].append(position) }
        }
        oneDeletion.sort { ($0.key, $0.position) < ($1.key, $1.position) }
        let lengths = scalars.map(\.count)
        self.lengths = lengths
        histograms = scalars.flatMap(Self.histogram)
        self.oneDeletion = oneDeletion
        self.byLength = byLength
        self.byFirstScalar = byFirstScalar.mapValues { positions in
            positions.sorted { (lengths[Int($0)], $0) < (lengths[Int($1)], $1) }
        }
        self.byPair = byPair
        sharedPairs = [UInt16](repeating: 0, count: candidates.count)
    }

    /// The candidate `typo` most likely meant, other than `excluded`, or `nil` when none is close.
    ///
    /// - Complexity: O(*m* log *n* + ``postingLimit`` + ``comparisonLimit`` × *m*²), whatever *n*;
    ///   a repeated `typo` costs one lookup.
    package mutating func closest(to typo: String, excluding excluded: String? = nil) -> String? {
        let best: Int?
        if let cached = cache[typo] {
            best = cached
        } else {
            best = search(Array(typo.unicodeScalars), excluding: nil)
            cache[typo] = best
        }
        guard let best else { return nil }
        if let excluded, names[best] == excluded {
            return search(Array(typo.unicodeScalars), excluding: excluded).map { names[$0] }
        }
        return names[best]
    }

    // MARK: - Search

    private mutating func search(_ typed: [Unicode.Scalar], excluding excluded: String?) -> Int? {
        guard !typed.isEmpty else { return nil }
        let limit = max(1, typed.count / 3)
        func allowed(_ position: Int) -> Bool { excluded == nil || names[position] != excluded }

        // One edit away: exact, through the deletion index.
        var best: (position: Int, distance: Int)?
        var compared: Set<Int> = []
        for key in Self.deletionKeys(typed) {
            var slot = lowerBound(key)
            while slot < oneDeletion.count, oneDeletion[slot].key == key {
                let position = Int(oneDeletion[slot].position)
                slot += 1
                guard allowed(position), compared.insert(position).inserted else { continue }
                comparisons += 1
                let distance = IdentifierSuggestion.editDistance(typed, scalars[position], limit: 1)
                if distance <= 1, (distance, position) < (best?.distance ?? .max, best?.position ?? .max) {
                    best = (position, distance)
                }
            }
        }
        if let best { return best.position }

        // Further away: every candidate of a length within reach, or the best-ranked of them.
        if limit > 1 {
            let typedHistogram = Self.histogram(typed)
            // In order of position, so only a strictly nearer candidate can beat the best so far;
            // nothing is nearer than 2 here, since every candidate one edit away was found above.
            var reach = limit
            for position in candidatesWithinReach(typed, limit: limit) where allowed(position) {
                comparisons += 1
                guard mayBeWithin(reach, typedHistogram, position) else { continue }
                let distance = IdentifierSuggestion.editDistance(typed, scalars[position], limit: reach)
                if distance <= reach {
                    best = (position, distance)
                    reach = distance - 1
                    if reach < 2 { break }
                }
            }
            if let best { return best.position }
        }

        // An abbreviation: the shortest (then earliest) candidate that starts the same and holds
        // the typed scalars in order.
        guard let first = typed.first, let sameStart = byFirstScalar[first] else { return nil }
        var (low, high) = (0, sameStart.count)
        while low < high {
            let middle = (low + high) / 2
            if lengths[Int(sameStart[middle])] <= typed.count { low = middle + 1 } else { high = middle }
        }
        for position in sameStart[low...].prefix(Self.comparisonLimit).lazy.map(Int.init) where allowed(position) {
            comparisons += 1
            if IdentifierSuggestion.isAbbreviation(typed, of: scalars[position]) { return position }
        }
        return nil
    }

    /// The candidates whose length differs from `typed`'s by at most `limit`: all of them when
    /// there are few enough, else the ``comparisonLimit`` sharing the most adjacent pairs with it.
    private mutating func candidatesWithinReach(_ typed: [Unicode.Scalar], limit: Int) -> [Int] {
        let reach = (typed.count - limit)...(typed.count + limit)
        let buckets = reach.compactMap { byLength[$0] }
        if buckets.reduce(0, { $0 + $1.count }) <= Self.comparisonLimit {
            return buckets.joined().map(Int.init).sorted()
        }
        // Rarest pairs first: they say the most, and cost the least to read.
        let postings = Set(Self.pairs(typed)).compactMap { byPair[$0] }.sorted { $0.count < $1.count }
        var touched: [Int] = []
        var read = 0
        sharedPairs.withUnsafeMutableBufferPointer { shared in
            for list in postings where read < Self.postingLimit {
                for position in list.prefix(Self.postingLimit - read) {
                    let position = Int(position)
                    guard reach.contains(lengths[position]) else { continue }
                    if shared[position] == 0 { touched.append(position) }
                    shared[position] += 1
                }
                read += min(list.count, Self.postingLimit - read)
            }
        }
        // Positions by how many pairs they share (at most one per pair of `typed`), most first.
        var byShared = [[Int]](repeating: [], count: typed.count)
        for position in touched {
            byShared[Int(sharedPairs[position])].append(position)
            sharedPairs[position] = 0
        }
        var ranked: [Int] = []
        for group in byShared.reversed() where ranked.count < Self.comparisonLimit {
            ranked += group.sorted().prefix(Self.comparisonLimit - ranked.count)
        }
        return ranked.sorted()
    }

    /// False when the candidate's characters differ from `typed`'s by more than `limit` edits
    /// can explain: an edit changes at most two counts by one (a transposition none), so the
    /// distance is at least half the difference of the histograms; buckets shared by several
    /// characters only make the difference smaller, never wrongly larger.
    private func mayBeWithin(_ limit: Int, _ typedHistogram: [UInt8], _ position: Int) -> Bool {
        let row = position * Self.histogramWidth
        var difference = 0
        for bucket in 0..<Self.histogramWidth {
            difference += abs(Int(typedHistogram[bucket]) - Int(histograms[row + bucket]))
        }
        return difference <= 2 * limit
    }

    /// `text`'s scalars counted into ``histogramWidth`` buckets (counts stop at 255).
    private static func histogram(_ text: [Unicode.Scalar]) -> [UInt8] {
        var counts = [UInt8](repeating: 0, count: histogramWidth)
        for scalar in text {
            let bucket = Int((scalar.value &* 0x9E37_79B1) >> 26)
            counts[bucket] = counts[bucket] == .max ? .max : counts[bucket] + 1
        }
        return counts
    }

    /// The first slot of `oneDeletion` whose key is at least `key`.
    private func lowerBound(_ key: UInt64) -> Int {
        var (low, high) = (0, oneDeletion.count)
        while low < high {
            let middle = (low + high) / 2
            if oneDeletion[middle].key < key { low = middle + 1 } else { high = middle }
        }
        return low
    }

    // MARK: - Keys

    /// Hashes of `text` and of `text` with each one scalar deleted: two texts one substitution,
    /// insertion, deletion or transposition apart share one of these.
    private static func deletionKeys(_ text: [Unicode.Scalar]) -> [UInt64] {
        let base: UInt64 = 0x100_0000_01B3
        let count = text.count
        var powers = [UInt64](repeating: 1, count: count + 1)
        var prefix = [UInt64](repeating: 0, count: count + 1)
        for index in 0..<count {
            powers[index + 1] = powers[index] &* base
            prefix[index + 1] = prefix[index] &* base &+ UInt64(text[index].value) &+ 1
        }
        var suffix = [UInt64](repeating: 0, count: count + 1)
        for index in stride(from: count - 1, through: 0, by: -1) {
            suffix[index] = (UInt64(text[index].value) &+ 1) &* powers[count - 1 - index] &+ suffix[index + 1]
        }
        var keys = [key(prefix[count], length: count)]
        for deleted in 0..<count {
            keys.append(key(prefix[deleted] &* powers[count - 1 - deleted] &+ suffix[deleted + 1], length: count - 1))
        }
        return keys
    }

    private static func key(_ hash: UInt64, length: Int) -> UInt64 {
        var mixed = hash ^ (UInt64(length) &* 0x9E37_79B9_7F4A_7C15)
        mixed = (mixed ^ (mixed >> 31)) &* 0xBF58_476D_1CE4_E5B9
        return mixed ^ (mixed >> 29)
    }

    /// Each pair of adjacent scalars, as one number.
    private static func pairs(_ text: [Unicode.Scalar]) -> [UInt64] {
        guard text.count >= 2 else { return [] }
        return (1..<text.count).map { UInt64(text[$0 - 1].value) << 32 | UInt64(text[$0].value) }
    }
}
