import Testing

@testable import StartupCLI

/// Progress lines wait to be printed together only where nothing else reaches the terminal between them.
@Suite struct ProgressIntervalTests {
    @Test func groupedAndQuietRunsBatchTheirLines() {
        #expect(RunCommand.progressInterval(output: .grouped, hasServices: false) == .milliseconds(20))
        #expect(RunCommand.progressInterval(output: .quiet, hasServices: false) == .milliseconds(20))
    }

    /// Streamed output and services' lines are written as they come: a command's line must not
    /// follow what its dependents print.
    @Test func streamedOutputAndServices_printEachLineAtOnce() {
        #expect(RunCommand.progressInterval(output: .stream, hasServices: false) == .zero)
        #expect(RunCommand.progressInterval(output: .grouped, hasServices: true) == .zero)
        #expect(RunCommand.progressInterval(output: .quiet, hasServices: true) == .zero)
    }
}
