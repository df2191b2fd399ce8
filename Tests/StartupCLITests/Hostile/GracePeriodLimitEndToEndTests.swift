import Foundation
import Testing

/// `--grace-period` takes the units the manifest does (`h` too) and is at most an hour: a value past that, absurd but
/// well formed, is refused with what is wrong and the maximum, never with a lesson in syntax.
@Suite struct GracePeriodLimitEndToEndTests {
    @Test(arguments: ["8760h", "61m", "3601s"])
    func aGracePeriodOverAnHour_isRefused_sayingItIsTooLong_andTheMaximum(value: String) async throws {
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", #"{"version": 1, "commands": [{"id": "a", "run": "true"}]}"#)
        let result = try await StartupBinary.run(["run", "--no-report", "--grace-period", value], in: folder.path)
        #expect(result.status == 64)
        #expect(
            result.error.contains(#"invalid duration "\#(value)" for --grace-period: too long; it is at most 1h"#), "\(result.error)")
    }

    @Test func aGracePeriodInHours_isAccepted() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", #"{"version": 1, "commands": [{"id": "a", "run": "true"}]}"#)
        let result = try await StartupBinary.run(["run", "--no-report", "--grace-period", "0.5h"], in: folder.path)
        #expect(result.status == 0, "\(result.error)")
    }
}
