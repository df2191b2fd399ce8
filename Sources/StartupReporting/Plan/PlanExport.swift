import StartupKit

/// Machine-readable forms of a plan: JSON, a Graphviz digraph and a Mermaid flowchart.
public enum PlanExport {
    /// The plan as JSON: `{"commands": [{"id", "dependencies", "after", "estimateMs", "level",
    /// "earliestStartMs", "latestStartMs", "slackMs", "onDemand", "effectivePriority"}],
    /// "criticalPath", "criticalPathMs", "predictedWallMs", "jobs", "warnings"}`, times from the
    /// estimates, `after` the commands it runs after (order-only edges, `StartupPlan.after(of:)`), `effectivePriority` only where a dependent raises it above the command's own
    /// (`StartupPlan.effectivePriority(of:)`), `jobs` `null` for no limit, `warnings` the
    /// sentences of `StartupPlan.warnings`.
    ///
    /// - Parameters:
    ///   - plan: The plan.
    ///   - durations: Durations to use instead of estimates, if any.
    ///   - jobs: The slot limit of the prediction; `nil` for none.
    public static func json(_ plan: StartupPlan, durations: [CommandID: Duration] = [:], jobs: Int?) -> JSONOutput {
        let timing = plan.timing(durations: durations)
        let commands: [JSONOutput] = timing.entries.map { entry in
            var members = JSONObjectBuilder()
            members.string("id", entry.id.rawValue)
            members.ids("dependencies", plan.dependencies(of: entry.id))
            members.ids("after", plan.after(of: entry.id))
            members.milliseconds("estimateMs", entry.duration)
            members.integer("level", plan.level(of: entry.id))
            members.milliseconds("earliestStartMs", entry.earliestStart)
            members.milliseconds("latestStartMs", entry.latestStart)
            members.milliseconds("slackMs", entry.slack)
            members.bool("onDemand", plan.options(of: entry.id).activation == .onDemand)
            if let raised = plan.raisedPriority(of: entry.id) { members.priority("effectivePriority", raised) }
            return .object(members.members)
        }
        return .object([
            ("commands", .array(commands)),
            ("criticalPath", .array(timing.criticalPath.map { .string($0.rawValue) })),
            ("criticalPathMs", .milliseconds(timing.criticalPathDuration)),
            ("predictedWallMs", .milliseconds(plan.predictedWallTime(durations: durations, slots: jobs))),
            ("jobs", jobs.map { .integer($0) } ?? .null),
            ("warnings", .array(plan.warnings.map { .string($0.description) })),
        ])
    }

    /// The plan as a Graphviz digraph, edges from each dependency to its dependents, dashed from
    /// each command to those that run after it (order-only edges), the critical path in bold red.
    public static func dot(_ plan: StartupPlan, durations: [CommandID: Duration] = [:]) -> String {
        let critical = criticalEdges(plan, durations: durations)
        var lines = ["digraph startup {", "  rankdir=LR;", "  node [shape=box, style=rounded];"]
        for id in plan.ids {
            let attributes = critical.nodes.contains(id) ? " [color=red, penwidth=2]" : ""
            lines.append("  \(quoted(id))\(attributes);")
        }
        for id in plan.ids {
            for dependency in plan.dependencies(of: id) {
                let attributes = critical.edges.contains([dependency, id]) ? " [color=red, penwidth=2]" : ""
                lines.append("  \(quoted(dependency)) -> \(quoted(id))\(attributes);")
            }
            for predecessor in plan.after(of: id) {
                let attributes = critical.edges.contains([predecessor, id]) ? "style=dashed, color=red, penwidth=2" : "style=dashed"
                lines.append("  \(quoted(predecessor)) -> \(quoted(id)) [\(attributes)];")
            }
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    /// The plan as a Mermaid flowchart, order-only edges dotted (`-.->`), the critical path
    /// highlighted.
    public static func mermaid(_ plan: StartupPlan, durations: [CommandID: Duration] = [:]) -> String {
        let critical = criticalEdges(plan, durations: durations)
        var names: [CommandID: String] = [:]
        for (position, id) in plan.ids.enumerated() { names[id] = "c\(position)" }
        var lines = ["flowchart LR"]
        for id in plan.ids {
            let label = id.rawValue.replacing("\"", with: "#quot;")
            lines.append("  \(names[id]!)[\"\(label)\"]")
        }
        for id in plan.ids {
            for dependency in plan.dependencies(of: id) {
                lines.append("  \(names[dependency]!) --> \(names[id]!)")
            }
            for predecessor in plan.after(of: id) {
                lines.append("  \(names[predecessor]!) -.-> \(names[id]!)")
            }
        }
        if !critical.nodes.isEmpty {
            lines.append("  classDef critical stroke:#d33,stroke-width:3px")
            lines.append("  class " + plan.ids.filter(critical.nodes.contains).map { names[$0]! }.joined(separator: ",") + " critical")
        }
        return lines.joined(separator: "\n")
    }

    private static func criticalEdges(_ plan: StartupPlan, durations: [CommandID: Duration]) -> (
        nodes: Set<CommandID>, edges: Set<[CommandID]>
    ) {
        let path = plan.timing(durations: durations).criticalPath
        return (Set(path), Set(zip(path, path.dropFirst()).map { [$0, $1] }))
    }

    private static func quoted(_ id: CommandID) -> String {
        "\"" + id.rawValue.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
    }
}
