import StartupKit
import StartupReporting

/// The reload line of a reload carried out as `restart --cascade` (``RunControl``'s moves).
extension ReloadLine {
    /// The line of reload `number` for the changed paths `changed`, which took `wall`: with `failure` (the step
    /// that failed) its failure form, otherwise `path`, the moves' critical path.
    static func render(number: Int, changed: [String], wall: Duration, path: [MoveStep], failure: MoveStep?, style: Style) -> String {
        render(number: number, batch: ReloadBatch(paths: changed), wall: wall, path: path, failure: failure, style: style)
    }

    /// The line of reload `number` for `batch` (which may say that changes were lost in an overflow).
    static func render(number: Int, batch: ReloadBatch, wall: Duration, path: [MoveStep], failure: MoveStep?, style: Style) -> String {
        let outcome: Outcome =
            failure.map { .failed(reason: $0.sentence) }
            ?? .succeeded(criticalPath: path.map { Step(id: $0.id, duration: $0.duration, isService: $0.endsReady) })
        return ReloadLine(number: number, batch: batch, wallTime: wall, outcome: outcome).text(style: style)
    }
}
