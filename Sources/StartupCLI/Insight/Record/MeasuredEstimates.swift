import StartupKit
import StartupManifest
import StartupReporting

/// Durations measured in the last run, standing in for the estimates a manifest leaves out:
/// `startup plan` predicts with them and `startup run` orders by them (critical-path first).
///
/// Only commands with a `run` line and no `estimate` that succeeded in a real (not `--simulate`)
/// run are taken; a manifest's own estimate always wins.
struct MeasuredEstimates {
    /// The report they come from.
    let source: String
    /// The measured durations, in the manifest's order.
    let durations: [(id: CommandID, duration: Duration)]

    /// Picks the durations `run` measured for the commands of `manifest` without an estimate.
    ///
    /// - Complexity: O(commands).
    init(run: SavedRun, manifest: Manifest, source: String) {
        self.source = source
        guard !run.settings.isSimulated else {
            durations = []
            return
        }
        durations = manifest.commands.compactMap { command in
            guard command.estimate == nil, command.run != nil,
                let recorded = run.report[command.id], recorded.status.isSuccess
            else { return nil }
            return (command.id, recorded.duration)
        }
    }

    /// Whether `manifest` has a command a measured duration would stand in for (a `run` line and
    /// no estimate): when it has none, the last run need not be read.
    static func areWanted(by manifest: Manifest) -> Bool {
        manifest.commands.contains { $0.estimate == nil && $0.run != nil }
    }

    /// Whether there is nothing to use.
    var isEmpty: Bool { durations.isEmpty }

    /// The manifest with the measured durations as estimates.
    func applied(to manifest: Manifest) -> Manifest {
        let byID = Dictionary(durations.map { ($0.id, $0.duration) }, uniquingKeysWith: { first, _ in first })
        var changed = manifest
        for index in changed.commands.indices {
            if let duration = byID[changed.commands[index].id] { changed.commands[index].estimate = duration }
        }
        return changed
    }

    /// The line `startup plan` prints: which estimates were measured, and where.
    var line: String {
        let count = durations.count
        let listed = durations.prefix(12).map { "\($0.id) \(DurationText.format($0.duration))" }.joined(separator: ", ")
        let more = count > 12 ? " and \(count - 12) more" : ""
        return "Measured in the last run (\(source)), for \(count) command\(count == 1 ? "" : "s") without an estimate: \(listed)\(more)"
    }

    /// `plan --format json` with `estimateSource` (`manifest`, `lastRun` or `none`) added to each
    /// command and `measuredFrom` (the report's path, or `null`) at the top.
    static func annotate(_ plan: JSONOutput, manifest: Manifest, measured: MeasuredEstimates?) -> JSONOutput {
        guard case .object(var members) = plan else { return plan }
        let learned = Set(measured?.durations.map(\.id) ?? [])
        let declared = Set(manifest.commands.filter { $0.estimate != nil }.map(\.id))
        for (index, member) in members.enumerated() where member.key == "commands" {
            guard case .array(let commands) = member.value else { continue }
            members[index].value = .array(
                commands.map { command in
                    guard case .object(let fields) = command, case .string(let id)? = fields.first(where: { $0.key == "id" })?.value else {
                        return command
                    }
                    let source = learned.contains(CommandID(id)) ? "lastRun" : declared.contains(CommandID(id)) ? "manifest" : "none"
                    return .object(fields + [("estimateSource", .string(source))])
                })
        }
        let used = measured.flatMap { $0.isEmpty ? nil : $0.source }
        return .object(members + [("measuredFrom", used.map(JSONOutput.string) ?? .null)])
    }
}
