import StartupKit
import StartupManifest
import StartupReporting
import StartupSupport

/// `startup plot`: draws a saved run report as an SVG timeline.
enum PlotCommand {
    /// Writes the SVG; throws the exit code when the report is unusable or the file cannot be written.
    static func execute(_ options: PlotOptions, console: Console) throws(ExitCode) {
        let run = try ReportFiles.load(options.report, console: console)
        if let milestone = options.milestone, run.report[milestone] == nil {
            let hint =
                IdentifierSuggestion.closest(to: milestone.rawValue, in: run.report.commands.map(\.id.rawValue))
                .map { " (did you mean \(MessageQuoting.quoted($0))?)" } ?? ""
            console.error(
                "--to: no command \(MessageQuoting.quoted(milestone)) in the report \(MessageQuoting.escaped(options.report))\(hint)")
            throw .usage
        }
        let svg = TimelineSVG(run: run, title: title(of: run, report: options.report), milestone: options.milestone).render()
        if options.output == "-" {
            console.out(svg)
            return
        }
        let path = options.output ?? defaultOutput(for: options.report)
        guard ReportFiles.write(svg, to: path, what: "plot", console: console) else { throw .cannotCreate }
        let count = "\(run.report.commands.count) command\(run.report.commands.count == 1 ? "" : "s")"
        if let milestone = options.milestone {
            let steps = run.report.criticalPath(to: milestone)
            console.out(
                "Timeline drawn in \(path): \(count), critical path to \(milestone) \(DurationText.format(run.report.criticalPathDuration(to: milestone))): "
                    + steps.map(\.rawValue).joined(separator: " -> ") + "\n")
        } else {
            console.out(
                "Timeline drawn in \(path): \(count), "
                    + "critical path \(DurationText.format(run.report.criticalPathDuration)) of \(DurationText.format(run.report.wallTime))\n"
            )
        }
    }

    /// `startup run commands.json`, after the manifest the report names.
    static func title(of run: SavedRun, report: String) -> String {
        let name =
            FilePaths.lastComponent(run.settings.manifestPath ?? report)
        return "startup run \(name)"
    }

    /// The report's path with `.svg` instead of `.json`.
    private static func defaultOutput(for report: String) -> String {
        (report.hasSuffix(".json") ? String(report.dropLast(5)) : report) + ".svg"
    }
}
