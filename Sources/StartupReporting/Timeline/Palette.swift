import StartupKit

/// The colours of the timeline: one per status (colour-blind-safe Tableau hues), and the
/// critical path's amber.
enum Palette {
    static let criticalBand = "#fde7b0"
    static let criticalStroke = "#7c2d12"
    static let criticalLink = "#c2410c"
    static let edge = "#7b8794"
    /// The dashes of an order-only (`after`) edge, as `startup graph` draws it dashed.
    static let afterDash = "4 3"
    static let skippedStroke = "#8b929a"
    static let budget = "#111827"
    static let slackOpacity = "0.28"
    /// Text about a failure, or a budget exceeded.
    static let alarm = "#c0272d"

    /// A bar's fill.
    static func fill(_ status: CommandStatus) -> String {
        switch status {
        case .succeeded: "#4e79a7"
        case .failed: "#e15759"
        case .timedOut: "#f28e2b"
        case .cancelled: "#a0a4aa"
        case .skipped, .notRequested: "none"
        }
    }

    /// Text about a status.
    static func text(_ status: CommandStatus) -> String {
        switch status {
        case .succeeded: "#111827"
        case .failed: alarm
        case .timedOut: "#b45309"
        case .cancelled, .skipped, .notRequested: "#6b7280"
        }
    }

    /// The status in words: `timed out`.
    static func word(_ status: CommandStatus) -> String {
        switch status {
        case .timedOut: "timed out"
        case .notRequested: "not requested"
        default: status.name
        }
    }

    /// The statuses the legend shows with a filled bar, in order.
    static let legend: [CommandStatus] = [.succeeded, .failed(RecordedError(message: "")), .timedOut(after: .zero), .cancelled]
}
