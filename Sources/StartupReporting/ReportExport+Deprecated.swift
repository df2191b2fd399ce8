import StartupKit

extension ReportExport {
    /// A status's detail: the error, the timeout or the skip reason; `nil` when there is none.
    @available(*, deprecated, renamed: "CommandStatus.detail", message: "Read the status's own detail: status.detail")
    public static func statusDetail(_ status: CommandStatus) -> String? {
        status.detail
    }
}
