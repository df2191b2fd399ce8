import StartupKit

/// What a caller writes into a report's JSON beyond the report itself, as it is written (``ReportExport``): the CLI's
/// shutdown and how its commands' processes ended, which the library's report does not know.
package struct ReportAdditions: Sendable {
    /// Members written after each command's own.
    package var commandMembers: @Sendable (CommandID) -> [(key: String, value: JSONOutput)]
    /// Members written after the report's own.
    package var members: [(key: String, value: JSONOutput)]

    /// Nothing added, or what is given.
    package init(
        commandMembers: @escaping @Sendable (CommandID) -> [(key: String, value: JSONOutput)] = { _ in [] },
        members: [(key: String, value: JSONOutput)] = []
    ) {
        self.commandMembers = commandMembers
        self.members = members
    }
}
