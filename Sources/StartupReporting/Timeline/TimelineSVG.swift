import StartupKit

/// A run drawn as an SVG timeline, in the manner of `systemd-analyze plot`: one row per command
/// ordered by start, a bar from its start to its end coloured by status, slack as a lighter tail,
/// the critical path on a highlighted band with its links drawn, dependencies as thin lines and
/// order-only (`after`) edges as dashed ones (for large graphs only when hovering a row in a
/// browser), and every detail in the row's tooltip.
///
/// Drawn to a milestone (``init(run:title:milestone:)``), the highlighted path is the critical
/// path to that command (`StartupReport.criticalPath(to:)`), slack is relative to its end, and
/// the commands it does not wait for have no slack tail.
///
/// Every command's row is a `<g class="command">` with `data-id`, `data-status` and
/// `data-critical`; its bar is the `<rect>` of class `bar`. Dependency lines are in
/// `<g class="dependencies">`, order-only ones in `<g class="after-edges">`, and a critical-path
/// link along an order-only edge has class `after`. An order-only edge is drawn where it ordered
/// something: the command it names ran and ended before the command started. Rows, font and ticks
/// are sized to stay readable at 300 commands.
public struct TimelineSVG: Sendable {
    /// The run to draw, with its settings (slot limit, budgets).
    public let run: SavedRun
    /// The heading, such as `startup run commands.json`.
    public let title: String
    /// The command whose critical path and slack are drawn; `nil` for the whole run's.
    public let milestone: CommandID?

    /// Prepares the drawing of a run, with the whole run's critical path.
    ///
    /// - Parameters:
    ///   - run: The report with its settings; budgets are drawn as ticks.
    ///   - title: The heading, such as `startup run commands.json`.
    public init(run: SavedRun, title: String) {
        self.init(run: run, title: title, milestone: nil)
    }

    /// Prepares the drawing of a run with the critical path to a milestone, such as the first
    /// screen, and slack relative to its end.
    ///
    /// - Parameters:
    ///   - run: The report with its settings; budgets are drawn as ticks.
    ///   - title: The heading, such as `startup run commands.json`.
    ///   - milestone: The command whose critical path and slack are drawn; `nil` for the whole run's.
    /// - Precondition: The report has a command `milestone`.
    public init(run: SavedRun, title: String, milestone: CommandID?) {
        precondition(milestone.map { run.report[$0] != nil } ?? true, "the report has no command \(milestone.map(\.rawValue) ?? "")")
        self.run = run
        self.title = title
        self.milestone = milestone
    }

    /// Graphs with more dependency and order-only lines than this draw them only on hover.
    static let alwaysDrawnEdgeLimit = 400

    /// The SVG document, a complete file.
    ///
    /// - Complexity: O(commands + edges).
    public func render() -> String {
        let layout = Layout(report: run.report, milestone: milestone)
        var svg = SVGText()
        svg.line("<?xml version='1.0' encoding='UTF-8'?>")
        svg.line(
            "<svg xmlns='http://www.w3.org/2000/svg' width='\(layout.width)' height='\(layout.height)' viewBox='0 0 \(layout.width) \(layout.height)' font-family='DejaVu Sans, Helvetica, Arial, sans-serif' font-size='\(format(layout.fontSize))'>"
        )
        svg.line("<title>\(XMLText.escape(title))</title>")
        svg.line(
            """
            <style>
              .deps { display: none; }
              .command:hover .deps { display: inline; }
              .command:hover .hit { fill: #1f2937; fill-opacity: 0.06; }
              .command:hover .label { font-weight: bold; }
            </style>
            <defs>
              <marker id="arrow" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                <path d="M 0 0 L 8 4 L 0 8 z" fill="\(Palette.criticalLink)"/>
              </marker>
              <marker id="dot" viewBox="0 0 6 6" refX="3" refY="3" markerWidth="4" markerHeight="4">
                <circle cx="3" cy="3" r="3" fill="#374151"/>
              </marker>
            </defs>
            <rect width="100%" height="100%" fill="#ffffff"/>
            """)
        header(&svg, layout)
        background(&svg, layout)
        axis(&svg, layout)
        if layout.edgeCount <= Self.alwaysDrawnEdgeLimit { dependencyLines(&svg, layout) }
        for (row, command) in layout.rows.enumerated() { commandRow(&svg, layout, row: row, command: command) }
        criticalLinks(&svg, layout)
        svg.line("</svg>")
        return svg.text
    }

    // MARK: - Parts

    private func header(_ svg: inout SVGText, _ layout: Layout) {
        let margin = Layout.margin
        svg.line("<text x='\(margin)' y='\(margin + 16)' font-size='17' font-weight='bold' fill='#111827'>\(XMLText.escape(title))</text>")
        let statusWord =
            switch run.report.status {
            case .succeeded: "Succeeded"
            case .failed: "Failed"
            case .cancelled: "Interrupted"
            }
        var facts = [
            "\(statusWord) in \(DurationText.format(run.report.wallTime))",
            "\(run.report.commands.count) command\(run.report.commands.count == 1 ? "" : "s")",
            "sum of durations \(DurationText.format(run.report.totalDuration))",
            "parallelism \(format(run.report.parallelism, decimals: 1))x",
            (milestone.map { "critical path to \($0)" } ?? "critical path")
                + " \(DurationText.format(layout.criticalPathDuration)) (\(layout.criticalPath.count) command\(layout.criticalPath.count == 1 ? "" : "s"))",
        ]
        if let jobs = run.settings.jobs { facts.append("\(jobs) job\(jobs == 1 ? "" : "s")") }
        if run.settings.isSimulated { facts.append("simulated") }
        let violations = run.budgetViolations.count
        if violations > 0 { facts.append("\(violations) over budget") }
        svg.line(
            "<text x='\(margin)' y='\(margin + 38)' font-size='12.5' fill='#374151'>\(XMLText.escape(facts.joined(separator: "  ·  ")))</text>"
        )

        var x = Double(margin)
        let y = Double(margin + 52)
        func item(_ label: String, swatch: (Double) -> String) {
            svg.line(swatch(x))
            svg.line("<text x='\(format(x + 20))' y='\(format(y + 10))' font-size='11.5' fill='#374151'>\(label)</text>")
            x += 20 + Double(label.count) * 6.6 + 18
        }
        for status in Palette.legend {
            item(Palette.word(status)) { x in
                "<rect x='\(format(x))' y='\(format(y + 1))' width='14' height='11' rx='2' fill='\(Palette.fill(status))'/>"
            }
        }
        item("skipped") { x in
            "<rect x='\(format(x + 0.5))' y='\(format(y + 1.5))' width='13' height='10' rx='2' fill='none' stroke='\(Palette.skippedStroke)' stroke-dasharray='2 1.5'/>"
        }
        item("critical path") { x in
            "<rect x='\(format(x - 2))' y='\(format(y - 2))' width='18' height='17' fill='\(Palette.criticalBand)'/><rect x='\(format(x))' y='\(format(y + 1))' width='14' height='11' rx='2' fill='\(Palette.fill(.succeeded))' stroke='\(Palette.criticalStroke)' stroke-width='1.6'/>"
        }
        item("slack") { x in
            "<rect x='\(format(x))' y='\(format(y + 1))' width='14' height='11' fill='\(Palette.fill(.succeeded))' fill-opacity='\(Palette.slackOpacity)'/>"
        }
        if run.settings.wallBudget != nil || !run.settings.budgets.isEmpty {
            item("budget") { x in
                "<line x1='\(format(x + 7))' x2='\(format(x + 7))' y1='\(format(y - 1))' y2='\(format(y + 14))' stroke='\(Palette.budget)' stroke-width='2'/>"
            }
        }
        let dependencyLabel = layout.edgeCount <= Self.alwaysDrawnEdgeLimit ? "dependency" : "dependencies: hover a row"
        let curve = { (x: Double) in
            "M \(format(x)) \(format(y + 1)) C \(format(x + 9)) \(format(y + 1)), \(format(x + 5)) \(format(y + 12)), \(format(x + 14)) \(format(y + 12))"
        }
        item(dependencyLabel) { x in
            "<path d='\(curve(x))' fill='none' stroke='\(Palette.edge)' stroke-width='1'/>"
        }
        if layout.hasAfterEdges {
            item("order-only after") { x in
                "<path class='after' d='\(curve(x))' fill='none' stroke='\(Palette.edge)' stroke-width='1' stroke-dasharray='\(Palette.afterDash)'/>"
            }
        }
    }

    private func background(_ svg: inout SVGText, _ layout: Layout) {
        svg.line("<g class='rows'>")
        let left = Double(Layout.margin)
        let width = Double(layout.width - 2 * Layout.margin)
        for (row, command) in layout.rows.enumerated() {
            let y = layout.rowTop(row)
            if layout.isCritical(command), command.startOffset != nil {
                svg.line(
                    "<rect x='\(format(left))' y='\(format(y))' width='\(format(width))' height='\(layout.rowHeight)' fill='\(Palette.criticalBand)'/>"
                )
            } else if row % 2 == 1 {
                svg.line(
                    "<rect x='\(format(left))' y='\(format(y))' width='\(format(width))' height='\(layout.rowHeight)' fill='#f5f7fa'/>")
            }
        }
        svg.line("</g>")
    }

    private func axis(_ svg: inout SVGText, _ layout: Layout) {
        svg.line("<g class='axis' font-size='\(format(layout.smallFontSize))' fill='#4b5563' text-anchor='middle'>")
        let top = layout.rowsTop
        let bottom = layout.rowsBottom
        for tick in layout.axis.ticks {
            let x = format(layout.x(tick))
            let stroke = tick == 0 ? "#9ca3af" : "#e1e5ea"
            svg.line("<line x1='\(x)' x2='\(x)' y1='\(format(top - 4))' y2='\(format(bottom + 2))' stroke='\(stroke)' stroke-width='1'/>")
            svg.line("<text x='\(x)' y='\(format(top - 8))'>\(layout.axis.label(tick))</text>")
            if layout.rows.count > 25 {
                svg.line("<text x='\(x)' y='\(format(bottom + 15))'>\(layout.axis.label(tick))</text>")
            }
        }
        svg.line("</g>")
        if let budget = run.settings.wallBudget, budget.fractionalMilliseconds <= layout.axis.end {
            let x = format(layout.x(budget.fractionalMilliseconds))
            let colour = run.report.wallTime > budget ? Palette.alarm : Palette.budget
            svg.line("<g class='wall-budget' stroke='\(colour)' fill='\(colour)'>")
            svg.line(
                "<line x1='\(x)' x2='\(x)' y1='\(format(top - 4))' y2='\(format(bottom + 2))' stroke-width='1.5' stroke-dasharray='5 3'/>")
            svg.line(
                "<text x='\(x)' y='\(format(top - 20))' stroke='none' text-anchor='middle' font-size='\(format(layout.smallFontSize))'>budget \(DurationText.format(budget))</text>"
            )
            svg.line("</g>")
        }
    }

    private func dependencyLines(_ svg: inout SVGText, _ layout: Layout) {
        svg.line("<g class='dependencies' fill='none' stroke='\(Palette.edge)' stroke-width='0.8' stroke-opacity='0.55'>")
        for command in layout.rows {
            for dependency in command.dependencies {
                if let path = layout.edgePath(from: dependency, to: command.id) { svg.line("<path d='\(path)'/>") }
            }
        }
        svg.line("</g>")
        guard layout.hasAfterEdges else { return }
        svg.line(
            "<g class='after-edges' fill='none' stroke='\(Palette.edge)' stroke-width='0.8' stroke-opacity='0.7' stroke-dasharray='\(Palette.afterDash)'>"
        )
        for command in layout.rows {
            for path in layout.afterPaths(to: command) { svg.line("<path d='\(path)'/>") }
        }
        svg.line("</g>")
    }

    private func commandRow(_ svg: inout SVGText, _ layout: Layout, row: Int, command: CommandReport) {
        let top = layout.rowTop(row)
        let barTop = top + (Double(layout.rowHeight) - layout.barHeight) / 2
        let middle = top + Double(layout.rowHeight) / 2
        let textBaseline = middle + layout.fontSize * 0.36
        let critical = layout.isCritical(command) && command.startOffset != nil
        let classes = "command \(command.status.name)" + (critical ? " critical" : "")
        svg.line(
            "<g class='\(classes)' data-id='\(XMLText.escape(command.id.rawValue))' data-status='\(command.status.name)' data-critical='\(layout.isCritical(command))'>"
        )
        svg.line("<title>\(XMLText.escape(tooltip(command, layout)))</title>")
        svg.line(
            "<rect class='hit' x='\(Layout.margin)' y='\(format(top))' width='\(layout.width - 2 * Layout.margin)' height='\(layout.rowHeight)' fill='#ffffff' fill-opacity='0'/>"
        )

        let weight = critical ? " font-weight='bold'" : ""
        let labelColour = command.status.isSuccess ? "#111827" : Palette.text(command.status)
        svg.line(
            "<text class='label' x='\(format(layout.chartX - 8))' y='\(format(textBaseline))' text-anchor='end' fill='\(labelColour)'\(weight)>\(XMLText.escape(layout.shortened(command.id.rawValue)))</text>"
        )

        let fill = Palette.fill(command.status)
        var note: String
        let noteX: Double
        let noteStart: Double
        if let start = command.startOffset, let end = command.endOffset {
            let x = layout.x(start.fractionalMilliseconds)
            let endX = layout.x(end.fractionalMilliseconds)
            let width = max(1.5, endX - x)
            if let slack = layout.slack(of: command), slack > .zero {
                let slackEnd = min(layout.x((end + slack).fractionalMilliseconds), layout.chartX + layout.chartWidth)
                if slackEnd > endX + 0.5 {
                    svg.line(
                        "<rect class='slack' x='\(format(endX))' y='\(format(barTop))' width='\(format(slackEnd - endX))' height='\(format(layout.barHeight))' fill='\(fill)' fill-opacity='\(Palette.slackOpacity)'/>"
                    )
                }
            }
            let stroke = critical ? " stroke='\(Palette.criticalStroke)' stroke-width='1.6'" : ""
            svg.line(
                "<rect class='bar \(command.status.name)\(critical ? " critical" : "")' x='\(format(x))' y='\(format(barTop))' width='\(format(width))' height='\(format(layout.barHeight))' rx='2' fill='\(fill)'\(stroke)/>"
            )
            if let budget = run.settings.budgets[command.id] {
                let budgetX = layout.x((start + budget).fractionalMilliseconds)
                if budgetX <= layout.chartX + layout.chartWidth {
                    svg.line(
                        "<line class='budget' x1='\(format(budgetX))' x2='\(format(budgetX))' y1='\(format(barTop - 2))' y2='\(format(barTop + layout.barHeight + 2))' stroke='\(Palette.budget)' stroke-width='2'/>"
                    )
                }
            }
            // A service's bar is its time to ready, and says so.
            note = (command.timeToReady != nil ? "ready in " : "") + DurationText.format(command.duration)
            if !command.status.isSuccess { note += " · " + Palette.word(command.status) }
            noteX = x + width + 4
            noteStart = x
        } else {
            let x = layout.x(layout.skippedAt(command).fractionalMilliseconds)
            svg.line(
                "<rect class='bar \(command.status.name)' x='\(format(x + 0.5))' y='\(format(barTop + 0.5))' width='8' height='\(format(layout.barHeight - 1))' rx='2' fill='none' stroke='\(Palette.skippedStroke)' stroke-dasharray='2 1.5'/>"
            )
            note = Palette.word(command.status) + (layout.cause(of: command).map { " (\($0) did not succeed)" } ?? "")
            noteX = x + 12
            noteStart = x
        }
        if let budget = run.settings.budgets[command.id], command.duration > budget {
            note += " · over budget \(DurationText.format(budget))"
        }
        let noteColour =
            command.status.isSuccess && !(run.settings.budgets[command.id].map { command.duration > $0 } ?? false)
            ? "#4b5563" : (command.status.isSuccess ? Palette.alarm : Palette.text(command.status))
        // Past the right edge, the note goes before the bar instead.
        let fits = noteX + layout.textWidth(note, size: layout.smallFontSize) <= Double(layout.width - Layout.margin)
        let placement = fits ? "x='\(format(noteX))'" : "x='\(format(noteStart - 4))' text-anchor='end'"
        svg.line(
            "<text class='note' \(placement) y='\(format(textBaseline - 0.5))' font-size='\(format(layout.smallFontSize))' fill='\(noteColour)'\(weight) stroke='#ffffff' stroke-width='3' stroke-opacity='0.8' stroke-linejoin='round' paint-order='stroke'>\(XMLText.escape(note))</text>"
        )

        let incoming = command.dependencies.compactMap { layout.edgePath(from: $0, to: command.id) }
        if !incoming.isEmpty {
            svg.line("<g class='deps' fill='none' stroke='#1f2937' stroke-width='1.3' marker-start='url(#dot)'>")
            for path in incoming { svg.line("<path d='\(path)'/>") }
            svg.line("</g>")
        }
        let ordering = layout.afterPaths(to: command)
        if !ordering.isEmpty {
            svg.line(
                "<g class='deps after' fill='none' stroke='#1f2937' stroke-width='1.3' stroke-dasharray='\(Palette.afterDash)' marker-start='url(#dot)'>"
            )
            for path in ordering { svg.line("<path d='\(path)'/>") }
            svg.line("</g>")
        }
        svg.line("</g>")
    }

    private func criticalLinks(_ svg: inout SVGText, _ layout: Layout) {
        svg.line("<g class='critical-path' fill='none' stroke='\(Palette.criticalLink)' stroke-width='1.8' marker-end='url(#arrow)'>")
        for (from, to) in zip(layout.criticalPath, layout.criticalPath.dropFirst()) {
            guard let path = layout.edgePath(from: from, to: to) else { continue }
            if layout.isOrderOnly(from: from, to: to) {
                svg.line("<path class='after' d='\(path)' stroke-dasharray='\(Palette.afterDash)'/>")
            } else {
                svg.line("<path d='\(path)'/>")
            }
        }
        svg.line("</g>")
    }

    private func format(_ value: Double, decimals: Int = 2) -> String {
        SVGText.number(value, decimals: decimals)
    }

    /// The row's tooltip: status, times, slack, budget, dependencies and order-only edges.
    private func tooltip(_ command: CommandReport, _ layout: Layout) -> String {
        var lines = [command.id.rawValue]
        if let start = command.startOffset, let end = command.endOffset {
            lines.append(
                "\(Palette.word(command.status)) in \(DurationText.format(command.duration)) (\(DurationText.format(start)) to \(DurationText.format(end)))"
                    + (command.attempts > 1 ? ", \(command.attempts) attempts" : ""))
            let path = milestone.map { "the critical path to \($0)" } ?? "the critical path"
            if layout.isCritical(command) {
                lines.append("on \(path)")
            } else if let slack = layout.slack(of: command) {
                lines.append("slack \(DurationText.format(slack))" + (milestone.map { " before \($0)" } ?? ""))
            } else {
                lines.append("not on the way to \(milestone.map(\.rawValue) ?? "")")
            }
        } else {
            lines.append(Palette.word(command.status))
        }
        if let detail = command.status.detail, command.startOffset != nil { lines.append(detail) }
        if command.isService { lines.append("service: the bar is its time to ready; it kept running after") }
        if command.ranOnBlockingPool { lines.append("blocking: ran on the blocking pool") }
        if let priority = command.effectivePriority, command.isPriorityRaised {
            lines.append("priority \(priority), raised by a dependent" + (command.priority.map { " from \($0)" } ?? ""))
        }
        if command.isOptional { lines.append("optional") }
        if let budget = run.settings.budgets[command.id] {
            lines.append(
                "budget \(DurationText.format(budget))"
                    + (command.duration > budget ? ", over by \(DurationText.format(command.duration - budget))" : ""))
        }
        lines.append(
            command.dependencies.isEmpty ? "no dependencies" : "after " + command.dependencies.map(\.rawValue).joined(separator: ", "))
        if !command.after.isEmpty {
            lines.append("order-only after " + command.after.map { orderOnlyStep($0, of: command, layout) }.joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }

    /// A command `command` runs after, as its tooltip names it: the id alone if `command` waited
    /// for it, else with why it did not.
    private func orderOnlyStep(_ predecessor: CommandID, of command: CommandReport, _ layout: Layout) -> String {
        if layout.waited(for: predecessor, by: command) { return predecessor.rawValue }
        let ran = run.report[predecessor]?.startOffset != nil
        return predecessor.rawValue + (ran ? " (not waited for: it ended later)" : " (did not run)")
    }
}
