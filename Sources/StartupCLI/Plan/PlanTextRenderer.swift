import StartupKit
import StartupManifest

/// The text of `startup plan`: the waves with each command's estimate and dependencies (`after`
/// edges apart, as `order-only after`; on-demand ones marked, services with how their readiness is probed, a `stop` line with its `stopTimeout`, what a command watches), then the predicted critical path and wall time, then the plan's warnings.
struct PlanTextRenderer {
    let plan: StartupPlan
    let manifest: Manifest
    let jobs: Int?
    let file: String
    /// The targets the plan was selected for (`startup plan ID...`); none for the whole manifest.
    var targets: [CommandID] = []
    /// How many commands the whole manifest has, for `5 of 20 commands` when there are targets.
    var manifestCount = 0

    func render() -> String {
        let timing = plan.timing()
        let levels = plan.levels
        let critical = Set(timing.criticalPath)
        let idWidth = min(40, plan.ids.map(\.rawValue.count).max() ?? 0)
        var services: [CommandID: ManifestCommand] = [:]
        for command in manifest.commands where command.isService { services[command.id] = command }
        var stopTimeouts: [CommandID: Duration] = [:]
        for command in manifest.commands where command.stop != nil {
            stopTimeouts[command.id] = command.stopTimeout ?? ManifestCommand.defaultStopTimeout
        }
        var watches: [CommandID: ManifestWatch] = [:]
        for command in manifest.commands { watches[command.id] = command.watch }
        var lines = [header(waves: levels.count), ""]
        for (number, level) in levels.enumerated() {
            lines.append("wave \(number + 1)")
            for id in level {
                let entry = timing[id]!
                let marker = critical.contains(id) ? "*" : " "
                let estimate = DurationText.format(entry.duration).leftPadded(to: 7)
                let slack = entry.slack > .zero ? "  slack \(DurationText.format(entry.slack))" : ""
                let dependencies = plan.dependencies(of: id)
                let after = dependencies.isEmpty ? "" : "  after " + dependencies.map(\.rawValue).joined(separator: ", ")
                let ordered = plan.after(of: id)
                let orderOnly = ordered.isEmpty ? "" : "  order-only after " + ordered.map(\.rawValue).joined(separator: ", ")
                let onDemand = plan.options(of: id).activation == .onDemand ? "  (on demand)" : ""
                let raised = raisedPriority(of: id).map { "  priority \($0.priority) from \($0.source)" } ?? ""
                let probe =
                    services[id].flatMap { service in
                        service.ready.map { "  ready: " + $0.summary(timeout: service.readyTimeout(defaults: manifest.defaults)) }
                    } ?? ""
                let restart = services[id]?.restart.map { "  restart: " + Self.summary(of: $0) } ?? ""
                let alive = services[id]?.alive.map { "  alive: " + $0.summary } ?? ""
                let stop = stopTimeouts[id].map { "  stop line: stopTimeout \(DurationText.format($0))" } ?? ""
                let watch = watches[id].map { "  watch: " + $0.summary } ?? ""
                lines.append(
                    "  \(marker) \(id.rawValue.padded(to: idWidth))  \(estimate)\(slack)\(after)\(orderOnly)\(raised)\(onDemand)\(probe)\(restart)\(alive)"
                        + stop + watch)
            }
        }
        let milestones = manifest.commands.filter { $0.run == nil }.count
        let total = timing.entries.reduce(Duration.zero) { $0 + $1.duration }
        lines.append("")
        lines.append("Critical path (* above), predicted \(DurationText.format(timing.criticalPathDuration)):")
        lines.append("  " + timing.criticalPath.map { "\($0) \(DurationText.format(timing[$0]!.duration))" }.joined(separator: " -> "))
        let slots = jobs.map { "with \(plural($0, "job"))" } ?? "with unlimited jobs"
        lines.append(
            "Predicted wall time \(slots): \(DurationText.format(plan.predictedWallTime(slots: jobs)))"
                + " (sum of estimates \(DurationText.format(total)))")
        switch milestones {
        case 0: break
        case 1: lines.append("1 milestone (no run line) succeeds as soon as its dependencies do.")
        default: lines.append("\(milestones) milestones (no run line) succeed as soon as their dependencies do.")
        }
        let warnings = plan.warnings
        if !warnings.isEmpty {
            lines.append("")
            lines.append("Warnings:")
            lines += warnings.map { "  \($0)" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Where a dependent raises `id`'s priority: the effective priority and the nearest command
    /// that declares it, found by following dependents of that same effective priority.
    private func raisedPriority(of id: CommandID) -> (priority: CommandPriority, source: CommandID)? {
        guard let effective = plan.raisedPriority(of: id) else { return nil }
        var current = id
        while plan.raisedPriority(of: current) != nil {
            guard let next = plan.dependents(of: current).first(where: { plan.effectivePriority(of: $0) == effective }) else {
                return nil
            }
            current = next
        }
        return (effective, current)
    }

    /// `Plan for commands.json: 20 commands in 7 waves`, or with targets
    /// `Plan for commands.json, target auth-session: 6 of 20 commands in 4 waves`.
    private func header(waves: Int) -> String {
        guard !targets.isEmpty else { return "Plan for \(file): \(plural(plan.count, "command")) in \(plural(waves, "wave"))" }
        var seen = Set<CommandID>()
        let named = targets.filter { seen.insert($0).inserted }.map(\.rawValue).joined(separator: ", ")
        return "Plan for \(file), target\(seen.count == 1 ? "" : "s") \(named): "
            + "\(plan.count) of \(plural(manifestCount, "command")) in \(plural(waves, "wave"))"
    }

    private func plural(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    /// `on failure, at most 5 times, first after 500ms (doubling, at most 30s)`, or `never (limit 0)`: how
    /// ``RestartPolicy/delay(beforeRestart:)`` spaces the restarts, in words.
    static func summary(of restart: RestartPolicy) -> String {
        guard restart.limit > 0 else { return "never (limit 0)" }
        let on = restart.condition == .failure ? "on failure" : "on any exit"
        let times = restart.limit == 1 ? "once" : "at most \(restart.limit) times"
        let delay = DurationText.format(restart.delay)
        let spacing: String
        if restart.delay == .zero {
            spacing = "without a delay"
        } else if restart.limit == 1 {
            spacing = "first after \(delay)"
        } else if restart.delay >= RestartPolicy.maxDelay {
            // Past the ceiling of the doubled delays, every restart waits `delay` itself.
            spacing = "each after \(delay)"
        } else {
            spacing = "first after \(delay) (doubling, at most \(DurationText.format(RestartPolicy.maxDelay)))"
        }
        return "\(on), \(times), \(spacing)"
    }
}
