import StartupKit

/// A time axis with round ticks: 1, 2 or 5 times a power of ten, about `target` of them.
struct TimeAxis {
    /// The end of the axis, in milliseconds (at least the longest time drawn).
    let end: Double
    /// The distance between ticks, in milliseconds.
    let step: Double

    /// An axis from 0 to at least `span` milliseconds with about `target` ticks.
    init(span: Double, target: Int = 10) {
        let span = max(span, 0.001)
        let raw = span / Double(max(1, target))
        var magnitude = 0.001
        while magnitude * 10 <= raw { magnitude *= 10 }
        let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? magnitude * 10
        self.step = step
        self.end = (span / step).rounded(.up) * step
    }

    /// The tick times, from 0 to the end.
    var ticks: [Double] {
        let count = Int((end / step).rounded())
        return (0...count).map { Double($0) * step }
    }

    /// A tick's label: `0`, `250ms`, `1.5s`.
    func label(_ milliseconds: Double) -> String {
        milliseconds == 0 ? "0" : DurationText.format(.nanoseconds(Int64((milliseconds * 1_000_000).rounded())))
    }
}
