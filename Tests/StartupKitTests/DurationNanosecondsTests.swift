import Testing

@testable import StartupKit

/// Whole nanoseconds of a duration, as the scheduler records every start and end.
@Suite struct DurationNanosecondsTests {
    @Test func wholeNanosecondsAreKeptAndFractionsTruncatedTowardZero() {
        #expect(Duration.zero.clampedNanoseconds == 0)
        #expect((Duration.seconds(3) + .nanoseconds(7)).clampedNanoseconds == 3_000_000_007)
        #expect((Duration.nanoseconds(5) / 2).clampedNanoseconds == 2)
        #expect((Duration.nanoseconds(-5) / 2).clampedNanoseconds == -2)
        #expect(Duration.seconds(-4).clampedNanoseconds == -4_000_000_000)
        #expect(Duration.nanoseconds(Int64.max).clampedNanoseconds == .max)
    }

    @Test func durationsBeyondInt64NanosecondsAreClampedToItsBounds() {
        #expect(Duration.seconds(Int64.max).clampedNanoseconds == .max)
        #expect(Duration.seconds(Int64.min).clampedNanoseconds == .min)
        #expect((Duration.nanoseconds(Int64.max) + .nanoseconds(1)).clampedNanoseconds == .max)
    }
}
