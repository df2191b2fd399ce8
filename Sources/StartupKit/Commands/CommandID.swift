/// The name of a start-up command, unique within a plan, such as `"database"`: 1 to 200
/// characters, without spaces or control characters (the builder reports any other as
/// ``PlanIssue/invalidID(_:commandIndex:)``).
public struct CommandID: Hashable, Sendable, Comparable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The identifier's text.
    public let rawValue: String

    /// Creates an identifier from its text.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// Creates an identifier from a string literal: `let id: CommandID = "database"`.
    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    /// The identifier's text, unquoted.
    public var description: String { rawValue }

    /// Orders identifiers by their text.
    public static func < (lhs: CommandID, rhs: CommandID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
