import StartupKit
import Testing

@testable import StartupManifest

/// Numbers at the edge of their types and user data with control characters: range-checked and
/// escaped, each problem with its place.
@Suite struct HostileValuesTests {
    private func problems(_ json: String) -> [String] {
        do {
            _ = try Manifest.decode(Array(json.utf8))
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    @Test(arguments: ["-9223372036854775808", "9223372036854775807", "1000001", "-1000001"])
    func priority_outsideTheRange_isAProblem(number: String) {
        #expect(
            problems(#"{"version": 1, "commands": [{"id": "a", "priority": \#(number)}]}"#) == [
                #"commands[0] ("a").priority: expected "low", "normal", "high" or a whole number from -1000000 to 1000000, found the number \#(number)"#
            ])
    }

    @Test func priority_atTheEdgesOfTheRange_isAccepted() throws {
        let manifest = try Manifest.decode(
            Array(#"{"version": 1, "commands": [{"id": "a", "priority": -1000000}, {"id": "b", "priority": 1000000}]}"#.utf8))
        #expect(manifest.commands.map(\.priority) == [CommandPriority(-1_000_000), CommandPriority(1_000_000)])
    }

    @Test func durations_longerThanAYear_areProblemsThatSaySo() throws {
        #expect(
            problems(
                #"{"version": 1, "commands": [{"id": "a", "estimate": "525601m", "timeout": "1e400s", "budget": "\#(String(repeating: "9", count: 400))ms"}]}"#
            ) == [
                #"commands[0] ("a").estimate: invalid duration "525601m": too long; a duration is at most 8760h (365 days)"#,
                #"commands[0] ("a").timeout: invalid duration "1e400s": write a non-negative number with a unit, ms, s, m or h, such as "250ms" or "1.5s""#,
                #"commands[0] ("a").budget: invalid duration ""# + String(repeating: "9", count: 200)
                    + #"…" (402 characters): too long; a duration is at most 8760h (365 days)"#,
            ])
        let manifest = try Manifest.decode(Array(#"{"version": 1, "commands": [{"id": "a", "estimate": "525600m"}]}"#.utf8))
        #expect(manifest.commands[0].estimate == DurationText.maximum)
    }

    @Test func bareHugeNumbers_areCutInMessages() {
        let digits = String(repeating: "7", count: 1_000)
        #expect(
            problems(#"{"version": \#(digits), "commands": []}"#) == [
                "version: expected a whole number, found the number " + String(repeating: "7", count: 200) + "… (1000 characters)"
            ])
    }

    @Test func idsAndKeys_withControlCharacters_areEscapedInPathsAndMessages() {
        #expect(
            problems(
                #"{"version": 1, "commands": [{"id": "x\u001b[2J"}, {"id": "b", "dependencies": ["x\u009bq"], "env": {"K\u0007": 1}}]}"#)
                == [
                    #"commands[0] ("x\u001B[2J").id: invalid command id "x\u001B[2J": use 1 to 200 characters without spaces or control characters"#,
                    #"commands[1] ("b").dependencies[0]: invalid command id "x\u009Bq": use 1 to 200 characters without spaces or control characters"#,
                    #"commands[1] ("b").env.K\u0007: expected a string, found a number"#,
                ])
    }

    @Test(arguments: [
        (1_000.0, Duration.seconds(1_000)), (0.5, .milliseconds(500)), (-2.0, .zero), (Double.nan, .zero),
        (1e300, DurationText.maximum), (Double.infinity, DurationText.maximum),
    ])
    func scaled_staysWithinZeroAndTheMaximum(factor: Double, expected: Duration) {
        #expect(Duration.seconds(1).scaled(by: factor) == expected)
    }
}
