import StartupSupport

extension MessageQuoting {
    /// A command id in double quotes, escaped and cut as its text would be.
    package static func quoted(_ id: CommandID) -> String {
        quoted(id.rawValue)
    }
}
