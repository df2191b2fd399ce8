/// A command's failure as a report read back from a file knows it: the error's message only.
public struct RecordedError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What the error said (`exit status 1`).
    public let message: String

    /// Creates an error with the message of the original.
    public init(message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
