/// The one deterministic random number generator of the tests (SplitMix64), so every seed
/// reproduces its graph, document or mutation.
package struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    package init(seed: UInt64) {
        state = seed &+ 0x9E37_79B9_7F4A_7C15
    }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`; 0 when `bound` is not positive.
    package mutating func below(_ bound: Int) -> Int {
        bound <= 0 ? 0 : Int.random(in: 0..<bound, using: &self)
    }
}
