import Foundation
import StartupKit
import StartupReporting
import StartupTestSupport
import Testing

@testable import StartupCLI

/// `startup diff`'s text and JSON on crafted runs: the changes, the critical paths before and
/// after, and what moved the wall time.
@Suite struct DiffRenderingTests {
    @Test func text_showsChangesPathsAndWhatMoved() throws {
        let (before, after) = try RecordFixtures.beforeAndAfter()
        let text = DiffTextRenderer(diff: RunDiff(before: before, after: after), beforeFile: "old.json", afterFile: "new.json").render()
        #expect(text.contains("Wall time      70ms -> 95ms  (+25ms, +35.7%)"))
        #expect(text.contains("Critical path before: a 10ms -> b 50ms -> d 10ms"))
        #expect(text.contains("Critical path after:  a 5ms -> b 80ms -> d 10ms"))
        #expect(
            text.contains(
                """
                What moved the wall time (+25ms):
                  critical path +25ms (the same commands), outside it ±0ms (start-up overhead, waiting for slots)
                    b  +30ms (50ms -> 80ms)
                    a  -5ms (10ms -> 5ms)
                  absorbed by slack (no effect on the wall time):
                    c  +20ms (20ms -> 40ms, 40ms slack left)

                """))
        #expect(text.contains("*° b             50ms      80ms     +30ms  +60%"))
        #expect(text.contains("   e                -       5ms     added"))
        #expect(text.contains("   x             15ms         -   removed"))
    }

    @Test func json_hasBothRunsAndEveryCommand() throws {
        let (before, after) = try RecordFixtures.beforeAndAfter()
        let output = DiffJSON.json(RunDiff(before: before, after: after), beforeFile: "old.json", afterFile: "new.json")
        let json = try #require(JSONSerialization.jsonObject(with: Data(output.text().utf8)) as? [String: Any])
        #expect(json["wallChangeMs"] as? Double == 25)
        #expect((json["before"] as? [String: Any])?["criticalPath"] as? [String] == ["a", "b", "d"])
        let commands = try #require(json["commands"] as? [[String: Any]])
        #expect(commands.count == 6)
        let b = try #require(commands.first { $0["id"] as? String == "b" })
        #expect(b["changeMs"] as? Double == 30 && b["criticalPathEffectMs"] as? Double == 30)
        let x = try #require(commands.first { $0["id"] as? String == "x" })
        #expect(x["afterMs"] is NSNull && x["changeMs"] is NSNull)
    }
}
