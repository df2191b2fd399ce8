import StartupKit

extension TimelineSVG {
    /// Where everything goes: rows by start, sizes that stay readable from 1 to 300+ commands,
    /// and the time scale.
    struct Layout {
        static let margin = 20
        static let headerHeight = 96
        static let longestLabel = 36

        let rows: [CommandReport]
        let rowHeight: Int
        let barHeight: Double
        let fontSize: Double
        let smallFontSize: Double
        let labelWidth: Double
        let chartX: Double
        let chartWidth: Double
        let width: Int
        let height: Int
        let rowsTop: Double
        let axis: TimeAxis
        /// The dependency and order-only (`after`) edges the report declares.
        let edgeCount: Int
        /// Whether any command runs `after` another.
        let hasAfterEdges: Bool
        /// The critical path drawn: the whole run's, or the one to the milestone.
        let criticalPath: [CommandID]
        /// The sum of the durations along ``criticalPath``.
        let criticalPathDuration: Duration
        private let onCriticalPath: Set<CommandID>
        /// The slack relative to the milestone of the commands that lead to it; `nil` for the whole run.
        private let milestoneSlack: [CommandID: Duration]?
        private let rowOf: [CommandID: Int]
        /// For each command that never started: when it was skipped or cancelled (when the last
        /// of its dependencies ended or was itself given up) and the command that failed first.
        private let notStarted: [CommandID: (at: Duration, cause: CommandID?)]

        init(report: StartupReport, milestone: CommandID?) {
            rows = report.commandsByStart
            let milestoneSlack = milestone.map(report.slack(to:))
            self.milestoneSlack = milestoneSlack
            if let milestone {
                criticalPath = report.criticalPath(to: milestone)
                criticalPathDuration = report.criticalPathDuration(to: milestone)
            } else {
                criticalPath = report.criticalPath
                criticalPathDuration = report.criticalPathDuration
            }
            onCriticalPath = Set(criticalPath)
            let compact = rows.count > 60
            rowHeight = compact ? 16 : 22
            barHeight = compact ? 11 : 15
            fontSize = compact ? 11 : 12
            smallFontSize = compact ? 9.5 : 10.5
            let longest = min(Self.longestLabel, rows.map(\.id.rawValue.count).max() ?? 0)
            labelWidth = max(90, Double(longest) * fontSize * 0.62 + 16)
            chartX = Double(Self.margin) + labelWidth
            chartWidth = rows.count > 150 ? 1_100 : 900
            width = Int((chartX + chartWidth + 190).rounded())
            rowsTop = Double(Self.margin + Self.headerHeight)
            let bottomAxis = rows.count > 25 ? 24 : 8
            height = Int(rowsTop) + rows.count * rowHeight + bottomAxis + Self.margin
            let slack = { (row: CommandReport) in milestoneSlack.map { $0[row.id] ?? .zero } ?? row.slack }
            let latest = rows.compactMap { row in row.endOffset.map { ($0 + slack(row)).fractionalMilliseconds } }.max() ?? 0
            axis = TimeAxis(span: max(report.wallTime.fractionalMilliseconds, latest), target: compact ? 14 : 10)
            edgeCount = rows.reduce(0) { $0 + $1.dependencies.count + $1.after.count }
            hasAfterEdges = rows.contains { !$0.after.isEmpty }
            var rowOf: [CommandID: Int] = [:]
            for (row, command) in rows.enumerated() where rowOf[command.id] == nil { rowOf[command.id] = row }
            self.rowOf = rowOf
            notStarted = Self.notStarted(report)
        }

        /// Walks the commands in dependency order, so a chain of skipped commands is placed where
        /// the failure that skipped them ended.
        private static func notStarted(_ report: StartupReport) -> [CommandID: (at: Duration, cause: CommandID?)] {
            let order = (try? report.makePlan())?.topologicalOrder ?? report.commands.map(\.id)
            var result: [CommandID: (at: Duration, cause: CommandID?)] = [:]
            for id in order {
                guard let command = report[id], command.startOffset == nil else { continue }
                var at = Duration.zero
                var cause: CommandID?
                for dependency in command.dependencies {
                    guard let other = report[dependency] else { continue }
                    if let end = other.endOffset {
                        at = max(at, end)
                        if cause == nil, !other.status.isSuccess { cause = dependency }
                    } else if let earlier = result[dependency] {
                        at = max(at, earlier.at)
                        if cause == nil { cause = earlier.cause }
                    }
                }
                result[id] = (at, cause)
            }
            return result
        }

        var rowsBottom: Double { rowsTop + Double(rows.count * rowHeight) }

        /// Whether the command is on the critical path drawn.
        func isCritical(_ command: CommandReport) -> Bool {
            milestoneSlack == nil ? command.isOnCriticalPath : onCriticalPath.contains(command.id)
        }

        /// The command's slack: relative to the milestone if there is one, `nil` for a command the
        /// milestone does not wait for.
        func slack(of command: CommandReport) -> Duration? {
            milestoneSlack.map { $0[command.id] } ?? command.slack
        }

        func rowTop(_ row: Int) -> Double { rowsTop + Double(row * rowHeight) }

        func x(_ milliseconds: Double) -> Double {
            chartX + milliseconds / axis.end * chartWidth
        }

        /// An id cut to fit the label column.
        func shortened(_ id: String) -> String {
            id.count <= Self.longestLabel ? id : String(id.prefix(Self.longestLabel - 1)) + "…"
        }

        /// Where a command that never started is drawn: when it was given up.
        func skippedAt(_ command: CommandReport) -> Duration {
            notStarted[command.id]?.at ?? .zero
        }

        /// The command whose failure kept `command` from starting, if known.
        func cause(of command: CommandReport) -> CommandID? {
            notStarted[command.id]?.cause
        }

        /// About how wide a text is drawn at `size` points.
        func textWidth(_ text: String, size: Double) -> Double {
            Double(text.count) * size * 0.6
        }

        /// Whether `command` waited for `predecessor`, a command it runs after: the predecessor
        /// ran and ended no later than the command started, as the report's critical path counts
        /// it. An order-only edge to a command that did not run, or ended later, ordered nothing.
        func waited(for predecessor: CommandID, by command: CommandReport) -> Bool {
            guard let row = rowOf[predecessor], let end = rows[row].endOffset else { return false }
            return command.startOffset.map { end <= $0 } ?? true
        }

        /// Whether the edge from `predecessor` to `command` is order-only: `command` runs after it
        /// without depending on it.
        func isOrderOnly(from predecessor: CommandID, to command: CommandID) -> Bool {
            guard let row = rowOf[command] else { return false }
            return rows[row].after.contains(predecessor) && !rows[row].dependencies.contains(predecessor)
        }

        /// The curves of the order-only edges `command` waited for (``waited(for:by:)``).
        func afterPaths(to command: CommandReport) -> [String] {
            command.after.compactMap { predecessor in
                guard waited(for: predecessor, by: command), !command.dependencies.contains(predecessor) else { return nil }
                return edgePath(from: predecessor, to: command.id)
            }
        }

        /// A curve from the end of `dependency`'s bar to the start of `dependent`'s; `nil` if
        /// either never ran.
        func edgePath(from dependency: CommandID, to dependent: CommandID) -> String? {
            guard let from = rowOf[dependency], let to = rowOf[dependent],
                let end = rows[from].endOffset, let start = rows[to].startOffset
            else { return nil }
            let x1 = x(end.fractionalMilliseconds)
            let x2 = x(start.fractionalMilliseconds)
            let y1 = rowTop(from) + Double(rowHeight) / 2
            let y2 = rowTop(to) + Double(rowHeight) / 2
            let bend = max(6, (x2 - x1) / 2)
            let n = { SVGText.number($0) }
            return "M \(n(x1)) \(n(y1)) C \(n(x1 + bend)) \(n(y1)), \(n(x2 - bend)) \(n(y2)), \(n(x2)) \(n(y2))"
        }
    }
}
