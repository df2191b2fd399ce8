import StartupKit
import Testing

@testable import StartupReporting

/// Numbers in the JSON a report is saved as: written with 64-bit arithmetic on every platform, so
/// values past 2^31 and 2^32 (milliseconds of a long run, microseconds of a trace) come out whole
/// where `Int` is 32 bits, as they do here.
@Suite struct JSONOutputNumberTests {
    private func text(_ value: JSONOutput) -> String {
        value.text()
    }

    @Test(arguments: [
        (Duration.milliseconds(2_147_483_648), "2147483648"),  // 2^31 ms, about 25 days
        (Duration.milliseconds(4_294_967_296), "4294967296"),  // 2^32 ms, about 50 days
        (Duration.seconds(3) + .nanoseconds(250_000), "3000.25"),
        (Duration.nanoseconds(1), "0.000001"),
        (Duration.seconds(-5), "-5000"),
    ])
    func milliseconds_areWrittenWhole_pastThirtyTwoBits(duration: Duration, expected: String) {
        #expect(text(.milliseconds(duration)) == expected)
    }

    @Test(arguments: [(2_147_483_648, "2147483648"), (4_294_967_296, "4294967296"), (Int.min, "-9223372036854775808")])
    func integers_areWrittenWhole_pastThirtyTwoBits(value: Int, expected: String) {
        #expect(text(.integer(value)) == expected)
    }
}
