import Foundation
import StartupKit
import StartupReporting
import StartupTestSupport
import Testing

/// The README's "Reports in your app" block, run as written (in a temporary folder), and the same block on the
/// StartupReporting catalog's landing page.
@Suite struct ReadmeExampleTests {
    /// The first Swift block of `text` that follows `heading` (the whole text when `heading` is empty).
    static func swiftBlock(in text: String, after heading: String = "") throws -> Substring {
        let from = try #require(heading.isEmpty ? text.startIndex : text.range(of: heading)?.upperBound, "no \(heading)")
        let start = try #require(text.range(of: "```swift\n", range: from..<text.endIndex)?.upperBound)
        let end = try #require(text.range(of: "```\n", range: start..<text.endIndex)?.lowerBound)
        return text[start..<end]
    }

    @Test func theCatalogsLandingPage_showsTheReadmesBlock() throws {
        let readme = try Self.swiftBlock(in: RepositoryFiles.text("README.md"), after: "### Reports in your app")
        let landing = try Self.swiftBlock(in: RepositoryFiles.text("Sources/StartupReporting/StartupReporting.docc/StartupReporting.md"))
        #expect(readme.contains("SavedRun.load(path:"))
        #expect(landing == readme)
    }

    @Test func reportsInYourApp_runAsTheReadmeSays() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UInt64.random(in: 0 ... .max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var builder = StartupPlanBuilder()
        builder.add("configuration") { _ in }
        builder.add("database", dependsOn: ["configuration"]) { _ in }
        let plan = try builder.build()
        try SavedRun(report: await StartupOrchestrator(plan).run()).save(to: folder.appendingPathComponent("previous-launch.json").path)

        let report = await StartupOrchestrator(plan).run()
        let saved = SavedRun(report: report, settings: RunSettings(wallBudget: .milliseconds(400)))
        try saved.save(to: folder.appendingPathComponent("launch.json").path)
        let earlier = try SavedRun.load(path: folder.appendingPathComponent("previous-launch.json").path)
        let diff = RunDiff(before: earlier.report, after: report)
        let svg = TimelineSVG(run: saved, title: "launch").render()
        let trace = ReportExport.chromeTrace(report).text()

        #expect(try SavedRun.load(path: folder.appendingPathComponent("launch.json").path) == saved)
        #expect(diff.entries.map(\.id) == ["configuration", "database"])
        #expect(svg.hasPrefix("<?xml") && svg.contains("data-id='database'"))
        #expect(trace.contains("\"traceEvents\""))
        // The verdict follows the measured wall time (no real-time deadline: a sanitized build is slow).
        #expect(saved.budgetViolations.isEmpty == (report.wallTime <= .milliseconds(400)))
    }
}
