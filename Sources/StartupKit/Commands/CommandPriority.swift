/// The priority of a command: when more commands are ready than there are free slots, a higher
/// priority starts first. `.low`, `.normal` and `.high` are -1, 0 and 1; any integer works, and
/// those beyond ±2,147,483,647 are ordered as that bound.
public struct CommandPriority: Hashable, Sendable, Comparable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    /// The numeric priority; higher starts first.
    public let value: Int

    /// Creates a priority from a number; higher starts first.
    public init(_ value: Int) {
        self.value = value
    }

    /// Creates a priority from an integer literal.
    public init(integerLiteral value: Int) {
        self.value = value
    }

    /// Below normal (-1): runs when nothing more important is ready.
    public static let low = CommandPriority(-1)

    /// The default priority (0).
    public static let normal = CommandPriority(0)

    /// Above normal (1): starts before normal and low commands that are ready at the same time.
    public static let high = CommandPriority(1)

    /// Orders by value.
    public static func < (lhs: CommandPriority, rhs: CommandPriority) -> Bool {
        lhs.value < rhs.value
    }

    /// `low`, `normal`, `high`, or the number.
    public var description: String {
        switch value {
        case -1: "low"
        case 0: "normal"
        case 1: "high"
        default: String(value)
        }
    }
}
