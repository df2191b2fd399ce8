import StartupKit
import StartupReporting
import Testing

/// The report as a person reads it: the CLI's summary lines, then a table by start.
@Suite struct ReportSummaryTests {
    struct Boom: Error, CustomStringConvertible {
        var description: String { "boom" }
    }

    /// A command that ran from `start` to `end` milliseconds.
    private func ran(
        _ id: CommandID, _ start: Int, _ end: Int, slack: Int = 0, critical: Bool = false, after dependencies: [CommandID] = []
    ) -> CommandReport {
        CommandReport(
            id: id, status: .succeeded, startOffset: .milliseconds(start), endOffset: .milliseconds(end), attempts: 1,
            slack: .milliseconds(slack), isOnCriticalPath: critical, dependencies: dependencies)
    }

    @Test func summary_isTheCLIsSummaryAndATableByStart_asTheDocCommentShowsIt() {
        let report = StartupReport(
            status: .succeeded,
            commands: [
                ran("config", 0, 10, critical: true), ran("cache", 10, 40, slack: 20, after: ["config"]),
                ran("screen", 10, 60, critical: true, after: ["config"]),
            ],
            wallTime: .milliseconds(60), criticalPath: ["config", "screen"], criticalPathDuration: .milliseconds(60))
        #expect(
            ReportExport.summary(report) == """
                Succeeded in 60ms: 3 succeeded
                  sum of durations 90ms, parallelism 1.5x
                  critical path 60ms: config 10ms -> screen 50ms

                   start duration    slack   command  status
                     0ms     10ms      0ms * config   succeeded
                    10ms     30ms     20ms   cache    succeeded
                    10ms     50ms      0ms * screen   succeeded

                """)
    }

    @Test func summary_givesWhyACommandDidNotSucceed_andThoseThatNeverStartedLast() {
        let report = StartupReport(
            status: .failed,
            commands: [
                CommandReport(
                    id: "database", status: .skipped(SkipReason(failedCommand: "config", dependency: "config")),
                    dependencies: ["config"]),
                CommandReport(
                    id: "config", status: .failed(Boom()), startOffset: .zero, endOffset: .milliseconds(5), attempts: 1,
                    isOnCriticalPath: true),
            ],
            wallTime: .milliseconds(5), criticalPath: ["config"], criticalPathDuration: .milliseconds(5))
        let lines = ReportExport.summary(report).split(separator: "\n").map(String.init)
        #expect(lines.first == "Failed in 5ms: 1 failed, 1 skipped")
        #expect(
            lines.suffix(2) == [
                "     0ms      5ms      0ms * config    failed: boom",
                "       -        -        -   database  skipped: dependency \"config\" did not succeed",
            ])
    }
}
