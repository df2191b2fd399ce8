import StartupKit

extension ReportExport {
    /// A status's detail: the error, the timeout or the skip reason; `nil` when there is none.
    @available(*, deprecated, renamed: "CommandStatus.detail", message: "Read the status's own detail: status.detail")
    public static func statusDetail(_ status: CommandStatus) -> String? {
        status.detail
    }

    /// The text of ``json(_:settings:)``: JSON, not text for a person (that is ``summary(_:)``).
    @available(*, deprecated, renamed: "jsonText(_:settings:parts:)", message: "It returns JSON; summary(_:) gives the text a person reads")
    public static func text(_ report: StartupReport, settings: RunSettings = RunSettings(), parts: Int = 1) async -> String {
        await jsonText(report, settings: settings, parts: parts)
    }
}
