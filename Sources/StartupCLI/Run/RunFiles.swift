import StartupKit
import StartupReporting
import StartupSupport

/// The files `startup run` writes at its end, as its options ask: the Chrome trace (`--trace`), the
/// saved report and the SVG timeline (`--plot`). Each write says what it wrote, or why not on
/// standard error; a file the user named that cannot be written makes the run exit 73.
final class RunFiles {
    private let options: RunOptions
    private let console: Console
    /// Whether a file the user asked for could not be written.
    private(set) var anyFailed = false

    /// The files of a run with `options`, whose failures `console` shows.
    init(options: RunOptions, console: Console) {
        self.options = options
        self.console = console
    }

    /// Writes the Chrome trace with `--trace`, beside the manifest unless `--trace-file` names it.
    func writeTrace(_ report: StartupReport, shutdown: ShutdownReport?) -> String? {
        guard options.trace else { return nil }
        // Beside the manifest, spelled as the user spelled the manifest's path.
        let path = options.traceFile ?? ManifestFolder.prefix(forManifest: options.file) + ".startup/trace.json"
        let text = ReportExport.chromeTrace(report, shutdown: shutdown).text() + "\n"
        guard write(text, to: path, what: "trace", isWarning: false) else { return nil }
        return "Trace written to \(path) (open it in https://ui.perfetto.dev or chrome://tracing)"
    }

    /// Saves the report's JSON at `reportPath`, unless `--no-report`; failing to write the default path is only a
    /// warning.
    func writeReport(_ json: String?, reportPath: String) -> String? {
        guard options.savesReport, let json else { return nil }
        guard write(json, to: reportPath, what: "report", isWarning: options.report == nil) else { return nil }
        let shown = options.report ?? ReportFiles.displayPath(forManifest: options.file)
        return "Report saved to \(shown) (startup plot, startup diff and startup plan read it)"
    }

    /// Draws the timeline with `--plot`.
    func writePlot(_ run: SavedRun) -> String? {
        guard let path = options.plot else { return nil }
        let svg = TimelineSVG(run: run, title: "startup run " + options.file).render()
        guard write(svg, to: path, what: "plot", isWarning: false) else { return nil }
        return "Timeline drawn in \(path)"
    }

    /// Writes one file; when it cannot be written, returns `false` and, unless `isWarning`, fails the run.
    private func write(_ text: String, to path: String, what: String, isWarning: Bool) -> Bool {
        if ReportFiles.write(text, to: path, what: what, console: console, isWarning: isWarning) { return true }
        if !isWarning { anyFailed = true }
        return false
    }
}
