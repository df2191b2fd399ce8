import StartupManifest
import StartupReporting

/// `startup diff`: compares two saved run reports.
enum DiffCommand {
    /// Prints the comparison; throws the exit code when a report is unusable.
    static func execute(_ options: DiffOptions, console: Console) throws(ExitCode) {
        let before = try ReportFiles.load(options.before, console: console)
        let after = try ReportFiles.load(options.after, console: console)
        let diff = RunDiff(before: before.report, after: after.report)
        switch options.format {
        case .text: console.out(DiffTextRenderer(diff: diff, beforeFile: options.before, afterFile: options.after).render())
        case .json: console.out(DiffJSON.json(diff, beforeFile: options.before, afterFile: options.after).text(pretty: true) + "\n")
        }
    }
}
