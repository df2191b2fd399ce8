/// The one deterministic random number generator of the tests and the bench (SplitMix64), so
/// every seed reproduces its graph, document or mutation, and the same seed gives the same
/// sequence in both.
package struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`: equal seeds give equal sequences.
    package init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A number in `0..<bound`; 0 when `bound` is not positive.
    package mutating func below(_ bound: Int) -> Int {
        bound <= 0 ? 0 : Int.random(in: 0..<bound, using: &self)
    }

    /// `count` distinct integers drawn uniformly from `range`, sorted; all of `range` if it is
    /// smaller.
    ///
    /// - Complexity: O(count²) expected, meant for small counts.
    package mutating func distinct(_ count: Int, from range: Range<Int>) -> [Int] {
        guard count < range.count else { return Array(range) }
        var picked: [Int] = []
        picked.reserveCapacity(count)
        while picked.count < count {
            let candidate = Int.random(in: range, using: &self)
            if !picked.contains(candidate) { picked.append(candidate) }
        }
        return picked.sorted()
    }
}
