/// A line of an env file that could not be read: its number (from 1) and what is wrong with it, with any text it
/// quotes from the line escaped and cut (``MessageQuoting``).
struct EnvFileProblem: Sendable, Hashable {
    /// The line's number, from 1.
    let line: Int
    /// What is wrong, such as `missing "=" in "export PORT"; write NAME=value`.
    let message: String
}
