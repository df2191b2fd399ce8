import StartupReporting
import Testing

/// A saved report's ids and numbers are checked as the manifest's are: control characters and
/// absurd values are problems with their place, never a crash.
@Suite struct ReportHostileValuesTests {
    private func reportProblems(_ json: String) -> [String] {
        do {
            _ = try SavedRun.decode(Array(json.utf8))
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    @Test func reportIds_withControlCharacters_areProblems() {
        let found = reportProblems(
            #"{"status": "succeeded", "wallMs": 1, "criticalPath": [], "criticalPathMs": 0, "commands": [{"id": "a\u001b]0;t", "status": "succeeded", "durationMs": 1, "dependencies": []}]}"#
        )
        #expect(
            found == [
                #"commands[0] ("a\u001B]0;t").id: invalid command id "a\u001B]0;t": use 1 to 200 characters without spaces or control characters"#
            ])
    }

    @Test func reportMilliseconds_beyondAYear_areProblems() {
        let found = reportProblems(
            #"{"status": "succeeded", "wallMs": 31536000001, "criticalPath": [], "criticalPathMs": 0, "commands": []}"#)
        #expect(found == ["wallMs: expected a number of milliseconds from 0 to 31536000000 (365 days), found 31536000001"])
    }

    /// Plain decimals are read exactly to the nanosecond; a number with an exponent is read as a
    /// whole, not by its first six decimals (`1.1234567e2` is 112.34567 ms, not 1.123456 ms).
    @Test func reportMilliseconds_areReadExactly_andWithTheirExponent() throws {
        let exact = try SavedRun.decode(
            Array(#"{"status": "succeeded", "wallMs": 12.3456789, "criticalPath": [], "criticalPathMs": 0, "commands": []}"#.utf8))
        #expect(exact.report.wallTime == .nanoseconds(12_345_678))
        let exponent = try SavedRun.decode(
            Array(#"{"status": "succeeded", "wallMs": 1.1234567e2, "criticalPath": [], "criticalPathMs": 0, "commands": []}"#.utf8))
        #expect(exponent.report.wallTime == .nanoseconds(112_345_670))
    }
}
