import StartupKit
import StartupManifest
import StartupReporting

/// The text of `startup diff`: wall time and critical path before and after, what moved the wall
/// time, and every command's change, largest slowdown first.
struct DiffTextRenderer {
    let diff: RunDiff
    let beforeFile: String
    let afterFile: String

    /// Changes smaller than this are noise, not worth a line of their own: a millisecond, or a
    /// fiftieth of the wall time's change if that is more.
    var noticeable: Duration {
        max(.milliseconds(1), diff.wallChange.absolute / 50)
    }

    func render() -> String {
        let before = diff.before
        let after = diff.after
        var lines = [
            "Comparing \(beforeFile) (before) with \(afterFile) (after)",
            "",
            "Wall time      \(DurationText.format(before.wallTime)) -> \(DurationText.format(after.wallTime))  \(changeText(diff.wallChange, of: before.wallTime))",
            "Critical path  \(DurationText.format(before.criticalPathDuration)) -> \(DurationText.format(after.criticalPathDuration))  \(changeText(diff.criticalPathChange, of: before.criticalPathDuration))",
        ]
        if before.status != after.status {
            lines.append("Outcome        \(before.status.rawValue) -> \(after.status.rawValue)")
        }
        lines.append("")
        lines.append("Critical path before: " + path(before))
        lines.append("Critical path after:  " + path(after))
        lines.append("")
        lines += whatMoved()
        lines.append("")
        lines += table()
        return lines.joined(separator: "\n") + "\n"
    }

    /// The wall time's change split exactly: outside the critical path, the old critical
    /// chain's own change, and (if another chain took over) by how much the new one leads.
    private func whatMoved() -> [String] {
        let byID = Dictionary(diff.entries.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let oldPath = diff.before.criticalPath.compactMap { byID[$0] }
        let oldIDs = Set(diff.before.criticalPath)
        let newIDs = Set(diff.after.criticalPath)
        let newOnly = diff.after.criticalPath.filter { !oldIDs.contains($0) }.compactMap { byID[$0] }
        let offPath = diff.entries.filter { !oldIDs.contains($0.id) && !newIDs.contains($0.id) }
        let width = min(32, diff.entries.map(\.id.rawValue.count).max() ?? 0)
        let outside = "outside it \(diff.outsideCriticalPathChange.signedText) (start-up overhead, waiting for slots)"
        var lines = ["What moved the wall time (\(diff.wallChange.signedText)):"]
        if diff.criticalPathChanged {
            lines.append("  critical path \(diff.criticalPathChange.signedText), \(outside)")
            lines.append("  the old critical path's commands: \(diff.oldPathChange.signedText)")
            lines += changes(oldPath, width: width, indent: "    ")
            lines.append(
                "  the new critical path (\(diff.after.criticalPath.map(\.rawValue).joined(separator: " -> "))) now leads it by \(diff.newPathLead.signedText)"
            )
            lines += changes(newOnly, width: width, indent: "    ", showingAdded: true)
        } else {
            lines.append("  critical path \(diff.criticalPathChange.signedText) (the same commands), \(outside)")
            lines += changes(oldPath, width: width, indent: "    ")
        }
        // Off the critical paths, only changes that stand out from the noise of timing.
        let standsOut = max(.milliseconds(2), diff.wallChange.absolute / 10)
        let absorbed = offPath.filter { ($0.change ?? .zero).absolute >= standsOut }.sorted { $0.change!.absolute > $1.change!.absolute }
        if !absorbed.isEmpty {
            lines.append("  absorbed by slack (no effect on the wall time):")
            for entry in absorbed.prefix(5) {
                let slack = entry.after.map { ", \(DurationText.format($0.slack)) slack left" } ?? ""
                lines.append(
                    "    \(entry.id.rawValue.padded(to: width))  \(entry.change!.signedText) (\(DurationText.format(entry.before!.duration)) -> \(DurationText.format(entry.after!.duration))\(slack))"
                )
            }
            if absorbed.count > 5 { lines.append("    and \(absorbed.count - 5) more") }
        }
        return lines
    }

    /// The noticeable changes among `entries`, largest first, the rest summed up.
    private func changes(_ entries: [RunDiff.Entry], width: Int, indent: String, showingAdded: Bool = false) -> [String] {
        var lines: [String] = []
        var rest = Duration.zero
        var restCount = 0
        let sorted = entries.sorted {
            ($0.change ?? $0.after?.duration ?? .zero).absolute > ($1.change ?? $1.after?.duration ?? .zero).absolute
        }
        for entry in sorted {
            let name = indent + entry.id.rawValue.padded(to: width) + "  "
            switch (entry.before, entry.after, entry.change) {
            case (nil, let after?, _) where showingAdded:
                lines.append(name + "added (\(DurationText.format(after.duration)))")
            case (let before?, nil, _):
                lines.append(name + "removed (was \(DurationText.format(before.duration)))")
            case (let before?, let after?, let change?) where change.absolute >= noticeable:
                lines.append(
                    name + "\(change.signedText) (\(DurationText.format(before.duration)) -> \(DurationText.format(after.duration)))")
            case (_, _, let change?):
                rest += change
                restCount += 1
            default:
                break
            }
        }
        if restCount > 0, rest != .zero || lines.isEmpty {
            lines.append(indent + "and \(restCount) smaller change\(restCount == 1 ? "" : "s") (\(rest.signedText) together)")
        }
        return lines
    }

    private func table() -> [String] {
        let width = max(7, min(32, diff.entries.map(\.id.rawValue.count).max() ?? 0))
        var lines = [
            "Commands (largest slowdown first; * on the critical path after, ° before):",
            "   " + "command".padded(to: width) + "     before     after     change",
        ]
        let sorted = diff.entries.enumerated().sorted { lhs, rhs in
            let left = lhs.element.change ?? lhs.element.after?.duration ?? (.zero - (lhs.element.before?.duration ?? .zero))
            let right = rhs.element.change ?? rhs.element.after?.duration ?? (.zero - (rhs.element.before?.duration ?? .zero))
            return left != right ? left > right : lhs.offset < rhs.offset
        }.map(\.element)
        for entry in sorted {
            let marks = (entry.after?.isOnCriticalPath == true ? "*" : " ") + (entry.before?.isOnCriticalPath == true ? "°" : " ")
            let beforeText = entry.before.map { DurationText.format($0.duration) } ?? "-"
            let afterText = entry.after.map { DurationText.format($0.duration) } ?? "-"
            var change: String
            if let delta = entry.change {
                change = delta.signedText.leftPadded(to: 9)
                if let before = entry.before, let ratio = entry.changeRatio, abs(ratio) >= 0.005 {
                    change += "  " + delta.percentText(of: before.duration, wholePercent: true)
                }
            } else {
                change = (entry.before == nil ? "added" : "removed").leftPadded(to: 9)
            }
            let beforeStatus = entry.before?.status ?? .succeeded
            let afterStatus = entry.after?.status ?? .succeeded
            if beforeStatus.name != afterStatus.name || !afterStatus.isSuccess {
                let word = { (status: CommandStatus) in status.name == "timedOut" ? "timed out" : status.name }
                change +=
                    beforeStatus.name == afterStatus.name ? "  \(word(afterStatus))" : "  \(word(beforeStatus)) -> \(word(afterStatus))"
            }
            lines.append(
                marks + " " + entry.id.rawValue.padded(to: width) + "  " + beforeText.leftPadded(to: 9) + " " + afterText.leftPadded(to: 9)
                    + " " + change)
        }
        return lines
    }

    private func path(_ report: StartupReport) -> String {
        guard !report.criticalPath.isEmpty else { return "(empty)" }
        return report.criticalPath.map { "\($0) \(DurationText.format(report[$0]?.duration ?? .zero))" }.joined(separator: " -> ")
    }

    private func changeText(_ change: Duration, of base: Duration) -> String {
        guard base > .zero else { return "(\(change.signedText))" }
        return "(\(change.signedText), \(change.percentText(of: base)))"
    }
}
