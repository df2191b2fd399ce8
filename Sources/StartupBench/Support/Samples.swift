/// Repeated measurements of one thing, in milliseconds, summarised by their median.
struct Samples: Sendable {
    /// The measurements, in the order they were taken.
    private(set) var milliseconds: [Double] = []

    /// Adds one measurement.
    mutating func append(_ duration: Duration) {
        milliseconds.append(duration.benchMilliseconds)
    }

    /// The median (the mean of the middle two for an even count); 0 when empty.
    var median: Double {
        guard !milliseconds.isEmpty else { return 0 }
        let sorted = milliseconds.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The smallest measurement; 0 when empty.
    var min: Double { milliseconds.min() ?? 0 }

    /// The largest measurement; 0 when empty.
    var max: Double { milliseconds.max() ?? 0 }

    /// `median 12.34 ms (min 12.01, max 13.50, n=5)`.
    var description: String {
        "median \(Format.fixed(median, 2)) ms (min \(Format.fixed(min, 2)), max \(Format.fixed(max, 2)), n=\(milliseconds.count))"
    }
}

extension Duration {
    /// The duration in milliseconds, with fractions.
    var benchMilliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    }
}
