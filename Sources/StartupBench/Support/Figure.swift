/// One result of the bench: a name, a value (or why it was skipped) and the design's target.
struct Figure: Sendable {
    /// What was measured, or why it could not be.
    enum Value: Sendable {
        /// A number printed with this many decimals.
        case number(Double, decimals: Int)
        /// The measurement could not be made; the text says why and how to fix it.
        case skipped(String)
    }

    /// A goal from the design, checked against the value.
    enum Target: Sendable {
        /// The value should be at most this.
        case atMost(Double)
        /// The value should be below this.
        case below(Double)
    }

    /// The stable name used in the summary, such as `overhead-vs-naive-taskgroup`.
    let name: String
    /// The value.
    let value: Value
    /// The design's target for this figure, if it has one.
    let target: Target?

    /// Creates a numeric figure.
    static func number(_ name: String, _ value: Double, decimals: Int = 3, target: Target? = nil) -> Figure {
        Figure(name: name, value: .number(value, decimals: decimals), target: target)
    }

    /// Creates a figure that could not be measured.
    static func skipped(_ name: String, _ reason: String) -> Figure {
        Figure(name: name, value: .skipped(reason), target: nil)
    }

    /// The value as printed: the number, or `skipped (reason)`.
    var formattedValue: String {
        switch value {
        case .number(let number, let decimals): Format.fixed(number, decimals)
        case .skipped(let reason): "skipped (\(reason))"
        }
    }

    /// `name: value`, the summary's format.
    var summaryLine: String { "\(name): \(formattedValue)" }

    /// The summary line followed by the target and whether it is met, for the readable part.
    var readableLine: String {
        guard let target, case .number(let number, _) = value else { return "  " + summaryLine }
        let (text, met): (String, Bool) =
            switch target {
            case .atMost(let limit): ("<= \(Format.fixed(limit, limit < 10 ? 2 : 0))", number <= limit)
            case .below(let limit): ("< \(Format.fixed(limit, limit < 10 ? 2 : 0))", number < limit)
            }
        return "  " + Format.padded(summaryLine, 44) + " target \(text): " + (met ? "met" : "NOT met")
    }
}
