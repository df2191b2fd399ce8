import StartupKit
import Testing

@testable import StartupCLI

@Suite struct CommandOutputsTests {
    @Test func record_keepsTheLastAttemptsOutput_anEmptyOneIncluded() {
        let outputs = CommandOutputs()
        outputs.record("", for: "quiet")
        #expect(outputs.output(of: "quiet") == "")
        outputs.record("first attempt failed\n", for: "flaky")
        outputs.record("", for: "quiet")
        #expect(outputs.output(of: "flaky") == "first attempt failed\n")
        outputs.record("", for: "flaky")  // the retry printed nothing
        #expect(outputs.output(of: "flaky") == "")
        outputs.record("third\n", for: "flaky")
        #expect(outputs.output(of: "flaky") == "third\n" && outputs.output(of: "quiet") == "")
    }
}
