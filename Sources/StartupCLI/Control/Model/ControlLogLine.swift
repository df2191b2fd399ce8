import StartupKit

/// One line of a command's output, as `startup logs` shows it.
package struct ControlLogLine: Sendable, Equatable {
    /// The command whose output it is.
    package var id: CommandID
    /// The line, without its line ending.
    package var text: String

    /// A line of `id`'s output.
    package init(id: CommandID, text: String) {
        self.id = id
        self.text = text
    }
}
