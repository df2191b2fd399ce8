import StartupKit
import StartupReporting
import StartupSupport

/// The line a reload prints, and its event's words: what changed, its wall time and its critical path,
/// `⟳ reload 3 (src/app.py): 2.41s, build 2.10s -> api 0.31s ready`, or why it failed,
/// `⟳ reload 4 (src/app.py +2 more): failed after 1.20s: build exited with status 2; the stack keeps running`.
package struct ReloadLine: Sendable, Hashable {
    /// One command on a reload's critical path.
    package struct Step: Sendable, Hashable {
        /// The command.
        package var id: CommandID
        /// Its part of the reload: a one-shot command's run, a service's stop and start to ready.
        package var duration: Duration
        /// Whether it is a service (its step ends with `ready`).
        package var isService: Bool

        /// A step of the critical path.
        package init(id: CommandID, duration: Duration, isService: Bool) {
            self.id = id
            self.duration = duration
            self.isService = isService
        }
    }

    /// How a reload ended.
    package enum Outcome: Sendable, Hashable {
        /// Every command reloaded is ready or has succeeded; the critical path of the reload, in order.
        case succeeded(criticalPath: [Step])
        /// A command failed: `reason` says which and how (`build exited with status 2`); the stack keeps running.
        case failed(reason: String)
        /// Nothing was reloaded: the service was stopped by hand, and stays stopped until started.
        case stoppedByHand(CommandID)
    }

    /// The reload's number in the run, from 1.
    package var number: Int
    /// What changed.
    package var batch: ReloadBatch
    /// From the reload's start to its end.
    package var wallTime: Duration
    /// How it ended.
    package var outcome: Outcome

    /// A reload's line.
    package init(number: Int, batch: ReloadBatch, wallTime: Duration, outcome: Outcome) {
        self.number = number
        self.batch = batch
        self.wallTime = wallTime
        self.outcome = outcome
    }

    /// The line, without a newline or colours.
    package var text: String { text(style: .plain) }

    /// The line, without a newline: its `⟳` yellow, or red for a failed reload, when `style` colours.
    package func text(style: Style) -> String {
        let mark: String
        switch outcome {
        case .succeeded, .stoppedByHand: mark = style.yellow("⟳")
        case .failed: mark = style.red("⟳")
        }
        let head = "\(mark) reload \(number) (\(batch.shown)): "
        switch outcome {
        case .succeeded(let path):
            return head + ([DurationText.format(wallTime)] + (path.isEmpty ? [] : [Self.describe(path)])).joined(separator: ", ")
        case .failed(let reason):
            return head + "failed after \(DurationText.format(wallTime)): \(reason); the stack keeps running"
        case .stoppedByHand(let id):
            let name = MessageQuoting.escaped(id.rawValue)
            return head + "\(name) is stopped (startup start \(name) starts it)"
        }
    }

    /// A critical path as the reload line and `restart --cascade` say it: `build 2.1s -> api 310ms ready`.
    package static func describe(_ path: [Step]) -> String {
        path.map { step in
            MessageQuoting.escaped(step.id.rawValue) + " " + DurationText.format(step.duration) + (step.isService ? " ready" : "")
        }.joined(separator: " -> ")
    }
}
