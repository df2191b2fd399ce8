import StartupKit
import StartupReporting

/// The reload line of a reload carried out as `restart --cascade` (``RunControl``'s moves).
extension ReloadLine {
    /// The line of reload `number` for `batch` (which may say that changes were lost in an overflow).
    static func render(number: Int, batch: ReloadBatch, wall: Duration, path: [MoveStep], failure: MoveStep?, style: Style) -> String {
        let outcome: Outcome =
            failure.map { .failed(reason: $0.sentence) }
            ?? .succeeded(criticalPath: path.map(Step.init))
        return ReloadLine(number: number, batch: batch, wallTime: wall, outcome: outcome).text(style: style)
    }
}

extension ReloadLine.Step {
    /// The step of the reload line that `step` of a move is.
    init(_ step: MoveStep) {
        self.init(id: step.id, duration: step.duration, isService: step.endsReady)
    }
}
