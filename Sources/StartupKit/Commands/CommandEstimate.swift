/// A command's expected duration and where it came from: declared in its options
/// (``CommandOptions/estimate``), or learned from the durations of past launches (a launch
/// profile applied to the plan, ``StartupPlan/replacingEstimates(_:)``).
public struct CommandEstimate: Sendable, Hashable, CustomStringConvertible {
    /// The expected duration.
    public let duration: Duration
    /// How many past launches it was learned from; `nil` for an estimate declared in the
    /// command's options.
    public let launches: Int?

    /// An estimate declared in a command's options.
    public static func declared(_ duration: Duration) -> CommandEstimate {
        CommandEstimate(duration: duration, launches: nil)
    }

    /// An estimate learned from the durations of `launches` past launches.
    ///
    /// - Precondition: `duration` is not negative and `launches` is positive.
    public static func learned(_ duration: Duration, launches: Int) -> CommandEstimate {
        precondition(launches > 0, "an estimate is learned from at least one launch")
        return CommandEstimate(duration: duration, launches: launches)
    }

    private init(duration: Duration, launches: Int?) {
        precondition(duration >= .zero, "a command's estimate must not be negative")
        self.duration = duration
        self.launches = launches
    }

    /// Whether it was learned from past launches rather than declared.
    public var isLearned: Bool { launches != nil }

    /// `120ms, declared` or `120ms, learned from 5 launches`.
    public var description: String {
        let source =
            switch launches {
            case nil: "declared"
            case 1?: "learned from 1 launch"
            case let count?: "learned from \(count) launches"
            }
        return "\(DurationText.format(duration)), \(source)"
    }
}
