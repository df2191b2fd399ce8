/// A command line `startup` cannot make sense of (exit 64).
package struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong, with a suggestion where there is one.
    package let message: String
    /// The subcommand whose usage to show, if known.
    package let subcommand: Invocation.Subcommand?

    package var description: String { message }
}
