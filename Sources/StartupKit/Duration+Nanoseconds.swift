extension Duration {
    /// The duration in whole nanoseconds, clamped to the range of `Int64` (about 292 years).
    var clampedNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return whole.addingSaturating(attoseconds / 1_000_000_000)
    }

}

extension Int64 {
    /// The sum, or the nearest bound when it would overflow.
    func addingSaturating(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        if overflow { return other < 0 ? .min : .max }
        return sum
    }
}
