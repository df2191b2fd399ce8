import StartupKit
import StartupManifest
import StartupReporting

/// `startup diff --format json`: `{"before": {...}, "after": {...}, "wallChangeMs",
/// "criticalPathChangeMs", "commands": [{"id", "beforeMs", "afterMs", "changeMs",
/// "criticalPathEffectMs", "beforeStatus", "afterStatus", "criticalBefore", "criticalAfter"}]}`,
/// times in milliseconds, `null` where a run lacks the command.
enum DiffJSON {
    static func json(_ diff: RunDiff, beforeFile: String, afterFile: String) -> JSONOutput {
        .object([
            ("before", run(diff.before, file: beforeFile)),
            ("after", run(diff.after, file: afterFile)),
            ("wallChangeMs", .milliseconds(diff.wallChange)),
            ("criticalPathChangeMs", .milliseconds(diff.criticalPathChange)),
            (
                "commands",
                .array(
                    diff.entries.map { entry in
                        .object([
                            ("id", .string(entry.id.rawValue)),
                            ("beforeMs", entry.before.map { .milliseconds($0.duration) } ?? .null),
                            ("afterMs", entry.after.map { .milliseconds($0.duration) } ?? .null),
                            ("changeMs", entry.change.map(JSONOutput.milliseconds) ?? .null),
                            ("criticalPathEffectMs", .milliseconds(entry.effect)),
                            ("beforeStatus", entry.before.map { .string($0.status.name) } ?? .null),
                            ("afterStatus", entry.after.map { .string($0.status.name) } ?? .null),
                            ("criticalBefore", .bool(entry.before?.isOnCriticalPath ?? false)),
                            ("criticalAfter", .bool(entry.after?.isOnCriticalPath ?? false)),
                        ])
                    })
            ),
        ])
    }

    private static func run(_ record: StartupReport, file: String) -> JSONOutput {
        .object([
            ("file", .string(file)),
            ("status", .string(record.status.rawValue)),
            ("wallMs", .milliseconds(record.wallTime)),
            ("criticalPath", .array(record.criticalPath.map { .string($0.rawValue) })),
            ("criticalPathMs", .milliseconds(record.criticalPathDuration)),
        ])
    }
}
