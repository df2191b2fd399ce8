extension Duration {
    /// The duration in whole nanoseconds, clamped to the range of `Int64` (about 292 years).
    ///
    /// Read on every command's start and end: one 128-bit division where the platform has
    /// `Int128`, rather than `components`' split into seconds and attoseconds.
    var clampedNanoseconds: Int64 {
        if #available(macOS 15, iOS 18, watchOS 11, tvOS 18, visionOS 2, *) {
            return Int64(clamping: self.attoseconds / 1_000_000_000)
        }
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
