import StartupKit
import StartupManifest
import StartupReporting

/// The plan before and after `--what-if` changes: the predicted wall time and critical path of
/// each, as text or as the changed plan's JSON with a `whatIf` object added.
struct WhatIfPrediction {
    let baseline: StartupPlan
    let scenario: WhatIfScenario
    let changed: StartupPlan
    let jobs: Int?

    /// The predictions, each from the plan's own simulation.
    var baselineWall: Duration { baseline.predictedWallTime(slots: jobs) }
    var changedWall: Duration { changed.predictedWallTime(slots: jobs) }

    /// The text of `startup plan --what-if`.
    func text(file: String) -> String {
        let before = baseline.timing()
        let after = changed.timing()
        let slots = jobs.map { "\($0) job\($0 == 1 ? "" : "s")" } ?? "unlimited jobs"
        var lines = ["What if, for \(file) (by estimates, \(slots)):"]
        lines += scenario.steps.map { "  " + $0.summary }
        lines.append("")
        let (old, new) = (baselineWall, changedWall)
        lines.append("Predicted wall time: \(DurationText.format(old)) -> \(DurationText.format(new)) (\(change(from: old, to: new)))")
        lines.append("Critical path before (\(DurationText.format(before.criticalPathDuration))): " + path(before))
        lines.append("Critical path after  (\(DurationText.format(after.criticalPathDuration))): " + path(after))
        return lines.joined(separator: "\n") + "\n"
    }

    /// `startup plan --what-if --format json`: the changed plan as `plan --format json` prints
    /// any plan, plus `whatIf`: the changes and the baseline's prediction.
    func json() -> JSONOutput {
        let plan = PlanExport.json(changed, jobs: jobs)
        let before = baseline.timing()
        let whatIf = JSONOutput.object([
            (
                "changes",
                .array(
                    scenario.steps.map { step in
                        .object([
                            ("change", .string(step.change.description)),
                            ("summary", .string(step.summary)),
                            ("beforeMs", step.before.map(JSONOutput.milliseconds) ?? .null),
                            ("afterMs", step.after.map(JSONOutput.milliseconds) ?? .null),
                        ])
                    })
            ),
            (
                "baseline",
                .object([
                    ("criticalPath", .array(before.criticalPath.map { .string($0.rawValue) })),
                    ("criticalPathMs", .milliseconds(before.criticalPathDuration)),
                    ("predictedWallMs", .milliseconds(baselineWall)),
                ])
            ),
            ("predictedWallChangeMs", .milliseconds(changedWall - baselineWall)),
        ])
        guard case .object(let members) = plan else { return plan }
        return .object(members + [("whatIf", whatIf)])
    }

    private func path(_ timing: PlanTiming) -> String {
        timing.criticalPath.map { "\($0) \(DurationText.format(timing[$0]!.duration))" }.joined(separator: " -> ")
    }

    private func change(from old: Duration, to new: Duration) -> String {
        let difference = new - old
        guard old > .zero else { return difference.signedText }
        return difference.signedText + ", " + difference.percentText(of: old)
    }
}
