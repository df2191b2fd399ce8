/// Durations as manifests and arguments write them: a number with a unit, `"250ms"`, `"1.5s"`, `"2m"`, `"1h"`.
public enum DurationText {
    /// The units a manifest accepts, with their length in milliseconds.
    static let units: [(suffix: String, milliseconds: Double)] = [("ms", 1), ("s", 1_000), ("m", 60_000), ("h", 3_600_000)]

    /// The longest duration a manifest, a report or an argument may give: 365 days, so that sums of
    /// thousands of them stay far from the 292-year limit of the nanosecond arithmetic.
    public static let maximum = Duration.seconds(365 * 24 * 3_600)

    /// Parses `"250ms"`, `"1.5s"`, `"2m"` or `"1h"`; `nil` if the text is not a non-negative number followed by
    /// one of those units, or is longer than ``maximum``.
    public static func parse(_ text: String) -> Duration? {
        guard let nanoseconds = nanoseconds(text), nanoseconds <= Double(maximum.components.seconds) * 1e9 else { return nil }
        return .nanoseconds(Int64(nanoseconds.rounded()))
    }

    /// Why `text` is not a duration, as a phrase for a message that has already quoted it: the
    /// number is too large, or the syntax to use.
    public static func problem(with text: String) -> String {
        if nanoseconds(text) != nil {
            return "too long; a duration is at most \(maximum.components.seconds / 3_600)h (365 days)"
        }
        return "write a non-negative number with a unit, ms, s, m or h, such as \"250ms\" or \"1.5s\""
    }

    /// The number of nanoseconds `text` writes, whatever its size; `nil` when it is not a number
    /// followed by a unit.
    private static func nanoseconds(_ text: String) -> Double? {
        // Byte by byte: the number and the unit are ASCII, so anything else fails either way.
        let bytes = text.utf8
        for unit in units where bytes.reversed().starts(with: unit.suffix.utf8.reversed()) {
            let number = bytes.dropLast(unit.suffix.utf8.count)
            guard !number.isEmpty, number.allSatisfy({ $0 == UInt8(ascii: ".") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                let value = Double(Substring(number))
            else { return nil }
            return value * unit.milliseconds * 1_000_000
        }
        return nil
    }

    /// A short human form: `850ms`, `1.25s`, `2m05s`.
    public static func format(_ duration: Duration) -> String {
        if duration < .zero {
            let magnitude = format(.zero - duration)
            return magnitude == format(.zero) ? magnitude : "-" + magnitude
        }
        let milliseconds = duration.fractionalMilliseconds
        switch milliseconds {
        case ..<10: return trimmed(milliseconds, decimals: 1) + "ms"
        case ..<1_000: return String(Int(milliseconds.rounded())) + "ms"
        case ..<60_000: return trimmed(milliseconds / 1_000, decimals: 2) + "s"
        default:
            let seconds = Int((milliseconds / 1_000).rounded())
            let remainder = seconds % 60
            return "\(seconds / 60)m" + (remainder < 10 ? "0" : "") + "\(remainder)s"
        }
    }

    /// `value` with at most `decimals` decimals, trailing zeros removed: `1.25`, `3`.
    private static func trimmed(_ value: Double, decimals: Int) -> String {
        var scale = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((value * Double(scale)).rounded())
        let whole = String(scaled / scale)
        var fraction = (scaled % scale).magnitude
        var places = decimals
        while places > 0, fraction % 10 == 0 {
            fraction /= 10
            places -= 1
        }
        guard places > 0 else { return whole }
        let digits = String(fraction)
        return whole + "." + String(repeating: "0", count: places - digits.count) + digits
    }
}

extension Duration {
    /// The duration times `factor`, kept within zero and ``DurationText/maximum`` whatever the
    /// factor (negative, huge, or not a number, which gives zero).
    package func scaled(by factor: Double) -> Duration {
        let nanoseconds = fractionalMilliseconds * 1_000_000 * factor
        let limit = DurationText.maximum.fractionalMilliseconds * 1_000_000
        guard nanoseconds > 0 else { return .zero }
        return nanoseconds >= limit ? DurationText.maximum : .nanoseconds(Int64(nanoseconds.rounded()))
    }

    /// The duration in milliseconds, with fractions.
    package var fractionalMilliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    }

    /// The duration in milliseconds, with fractions.
    @available(
        *, deprecated,
        message: "StartupKit no longer extends Duration: use Double(components.seconds) * 1_000 + Double(components.attoseconds) / 1e15"
    )
    public var milliseconds: Double { fractionalMilliseconds }
}
