/// One problem in a JSON document of this package: where it is and what is wrong.
public struct DocumentProblem: Sendable, Hashable, CustomStringConvertible {
    /// The line of the offending value, counting from 1; `nil` when the problem has no single place.
    public let line: Int?
    /// The column of the offending value, counting from 1.
    public let column: Int?
    /// The path of the offending value, e.g. `commands[4] ("database").dependencies[1]`.
    public let path: String
    /// What is wrong, e.g. `unknown command "confg" (did you mean "configuration"?)`.
    public let message: String

    /// Creates a problem.
    public init(line: Int?, column: Int?, path: String, message: String) {
        self.line = line
        self.column = column
        self.path = path
        self.message = message
    }

    /// `path: message`.
    public var description: String {
        path.isEmpty ? message : "\(path): \(message)"
    }
}
