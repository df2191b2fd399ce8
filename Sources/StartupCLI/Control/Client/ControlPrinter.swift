import StartupKit
import StartupReporting
import StartupSupport

/// Prints a client subcommand's answers: lines and events as they come, rows as a table (or JSON) at the end,
/// log lines prefixed by id (as they come when followed, at the end otherwise, the prefix as wide as the widest).
struct ControlPrinter: Sendable {
    let options: ControlOptions
    let console: Console
    /// The width of the id prefix of followed lines.
    let idWidth: Int

    /// Prints `answer` now, or says to keep it for ``finish(_:)``.
    func print(_ answer: ControlAnswer) -> Bool {
        switch answer {
        case .line(let text):
            console.out(text + "\n")
        case .event(let event):
            console.out(event.json.text() + "\n")
        case .log(let line):
            guard case .logs(_, _, follow: true) = options.request else { return false }
            console.out(text(of: line, width: idWidth))
        case .row, .hello, .ok, .error:
            return false
        }
        return true
    }

    /// Prints what was kept: the rows, or the log lines.
    func finish(_ kept: [ControlAnswer]) {
        let rows = kept.compactMap { if case .row(let row) = $0 { row } else { nil } }
        if options.request == .ps {
            console.out(options.format == .json ? ControlPrinter.json(rows) : ControlPrinter.table(rows))
            return
        }
        let lines = kept.compactMap { if case .log(let line) = $0 { line } else { nil } }
        let width = lines.map(\.id.rawValue.count).max() ?? 0
        console.out(lines.map { text(of: $0, width: width) }.joined())
    }

    /// A log line as `logs` prints it: `api      | text`, the prefix dim on a terminal; or its JSON.
    private func text(of line: ControlLogLine, width: Int) -> String {
        if options.format == .json {
            return JSONOutput.object([("id", .string(line.id.rawValue)), ("text", .string(line.text))]).text() + "\n"
        }
        return Style(enabled: console.usesColor).dim(line.id.rawValue.padded(to: width) + " |") + " " + line.text + "\n"
    }

    /// `ps --format json`: `{"commands": [rows]}`.
    static func json(_ rows: [ControlRow]) -> String {
        JSONOutput.object([("commands", .array(rows.map(\.json)))]).text(pretty: true) + "\n"
    }

    /// `ps` as a table: a header, then one row per command.
    static func table(_ rows: [ControlRow]) -> String {
        let header = ["ID", "KIND", "STATE", "PID", "SINCE", "READY", "RESTARTS", "LAST CHECK"]
        let cells = rows.map { row in
            [
                row.id.rawValue, row.kind.rawValue, row.state.rawValue, row.pid.map(String.init) ?? "-",
                DurationText.format(.milliseconds(row.sinceMs)), row.readyMs.map { DurationText.format(.milliseconds($0)) } ?? "-",
                String(row.restarts), row.lastCheck.map { MessageQuoting.escaped($0) } ?? "-",
            ]
        }
        let widths = header.indices.map { column in ([header] + cells).map { $0[column].count }.max() ?? 0 }
        return ([header] + cells).map { line in
            line.enumerated().map { column, cell in column == line.count - 1 ? cell : cell.padded(to: widths[column]) }
                .joined(separator: "  ") + "\n"
        }.joined()
    }
}
