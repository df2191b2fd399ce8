import StartupKit
import Testing

/// Ids quoted in the report's own messages are escaped too: a bidi override in an id never
/// reaches the terminal raw.
@Suite struct ReportMessageQuotingTests {
    @Test func skipReason_escapesControlAndBidiCharactersInIds() {
        let reason = SkipReason(failedCommand: "db\u{202E}x", dependency: "cache\u{1B}[2J")
        #expect(!reason.description.unicodeScalars.contains { $0 == "\u{202E}" || $0 == "\u{1B}" })
        #expect(reason.description.hasPrefix("dependency \"cache"))
    }
}
