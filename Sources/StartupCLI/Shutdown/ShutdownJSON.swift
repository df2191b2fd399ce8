import StartupKit
import StartupReporting

/// The shutdown as `run --format json` writes it into the report, its last member: `{"status", "wallMs", "stops": [{"id", "status",
/// "startMs", "durationMs", "error", "ending", "killedProcesses", "restarts"}]}`, the stops in the order they began
/// (those never begun last, `startMs` `null`). A service's `ending` says how its processes ended
/// (`exitedAfterSigterm`, `exitedAfterStopLine`, `killed`, with `killedProcesses`), `null` for other stops;
/// `restarts` lists each end of it that a restart followed (`{"atMs", "end"}`), empty for other stops.
/// A stop's `status` is `succeeded`, `failed`, `timedOut`, `cancelled`, or `cutShort` (a second interrupt killed its
/// stop line, kept it from starting, or killed the service at once); `error` is the reason, or `null`.
enum ShutdownJSON {
    /// The `shutdown` member's value for `report`.
    static func json(_ report: ShutdownReport, endings: ProcessEndings) -> JSONOutput {
        .object([
            ("status", .string(report.failuresNotCutShort.isEmpty && report.status == .failed ? "cutShort" : report.status.rawValue)),
            ("wallMs", .milliseconds(report.wallTime)),
            ("stops", .array(report.modules.map { stop($0, endings: endings) })),
        ])
    }

    /// `"ending"` and `"killedProcesses"` of a stop that ended as `ending`.
    static func members(of ending: ProcessEndings.StopEnding) -> [(key: String, value: JSONOutput)] {
        let killed = if case .killed(let count, _) = ending { count } else { 0 }
        return [("ending", .string(ending.name)), ("killedProcesses", .integer(killed))]
    }

    private static func stop(_ call: ModuleCallReport, endings: ProcessEndings) -> JSONOutput {
        let ending = endings.ending(of: call.module)
        let error: JSONOutput =
            switch call.status {
            case .failed(let error as ServiceEndedError): .string("ended by itself: " + ProcessEndings.end(of: error))
            case .failed(let error): .string(String(describing: error))
            case .timedOut(let limit): .string("timed out after \(DurationText.format(limit))")
            case .succeeded, .cancelled: .null
            }
        return .object(
            [
                ("id", .string(call.module.rawValue)),
                ("status", .string(call.wasCutShort ? "cutShort" : call.status.name)),
                ("startMs", call.startOffset.map(JSONOutput.milliseconds) ?? .null),
                ("durationMs", .milliseconds(call.duration)),
                ("error", error),
            ] + (ending.map(members(of:)) ?? [("ending", .null), ("killedProcesses", .null)]) + [
                (
                    "restarts",
                    .array(
                        endings.restarts(of: call.module).map { restart in
                            .object([("atMs", .milliseconds(restart.at)), ("end", .string(restart.end))])
                        })
                )
            ])
    }
}
