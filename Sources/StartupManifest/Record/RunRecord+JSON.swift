import StartupKit

extension RunRecord {
    /// The record as JSON: every key of ``ReportExport/json(_:)``, in its order and with its
    /// meaning, plus `dependencies` and `budgetMs` per command and `manifest`, `simulated`,
    /// `jobs`, `wallBudgetMs` and `budgetViolations` at the top. This is what `startup run` saves
    /// and what `startup run --format json` prints.
    ///
    /// - Complexity: O(commands + edges).
    public func json() -> JSONOutput {
        .object([
            ("status", .string(status.rawValue)),
            ("wallMs", .milliseconds(wallTime)),
            ("commands", .array(commands.map(Self.command))),
            ("criticalPath", .array(criticalPath.map { .string($0.rawValue) })),
            ("criticalPathMs", .milliseconds(criticalPathDuration)),
            ("totalMs", .milliseconds(totalDuration)),
            ("parallelism", .number(parallelism)),
            ("manifest", manifest.map(JSONOutput.string) ?? .null),
            ("simulated", .bool(isSimulated)),
            ("jobs", jobs.map(JSONOutput.integer) ?? .null),
            ("wallBudgetMs", wallBudget.map(JSONOutput.milliseconds) ?? .null),
            ("budgetViolations", .array(budgetViolations.map { violation in
                .object([
                    ("id", violation.id.map { .string($0.rawValue) } ?? .null),
                    ("budgetMs", .milliseconds(violation.budget)),
                    ("actualMs", .milliseconds(violation.actual)),
                ])
            })),
        ])
    }

    private static func command(_ command: RunRecordCommand) -> JSONOutput {
        var members: [(key: String, value: JSONOutput)] = [
            ("id", .string(command.id.rawValue)),
            ("status", .string(command.status.rawValue)),
            ("startMs", command.startOffset.map(JSONOutput.milliseconds) ?? .null),
            ("endMs", command.endOffset.map(JSONOutput.milliseconds) ?? .null),
            ("durationMs", .milliseconds(command.duration)),
            ("attempts", .integer(command.attempts)),
            ("slackMs", .milliseconds(command.slack)),
            ("optional", .bool(command.isOptional)),
            ("critical", .bool(command.isOnCriticalPath)),
        ]
        if let detail = command.detail { members.append(("detail", .string(detail))) }
        members.append(("dependencies", .array(command.dependencies.map { .string($0.rawValue) })))
        if let budget = command.budget { members.append(("budgetMs", .milliseconds(budget))) }
        return .object(members)
    }
}
