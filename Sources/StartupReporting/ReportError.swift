/// A saved run report could not be used: the file could not be read (`.unreadable`), or it is
/// not a report (`.invalid`, with every problem and its place).
public struct ReportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: Hashable, Sendable { case unreadable, invalid }
        private let value: Value

        /// The file is missing, a directory, or cannot be read.
        public static let unreadable = Code(value: .unreadable)
        /// The file was read but is not a run report.
        public static let invalid = Code(value: .invalid)

        /// The code's name.
        public var description: String { "\(value)" }
    }

    /// One problem in a report: where it is and what is wrong.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// The line of the offending value, counting from 1; `nil` when the problem has no single place.
        public let line: Int?
        /// The column of the offending value, counting from 1.
        public let column: Int?
        /// The path of the offending value, e.g. `commands[2] ("api").endMs`.
        public let path: String
        /// What is wrong, e.g. `ends before it starts`.
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

    /// Which kind of failure.
    public let code: Code
    /// The file's path as given, or the name given to ``SavedRun/decode(_:file:)``.
    public let file: String
    /// Every problem found, in document order.
    public let problems: [Problem]

    /// Creates an error.
    public init(code: Code, file: String, problems: [Problem]) {
        self.code = code
        self.file = file
        self.problems = problems
    }

    /// One line per problem, each starting `file:line:column:` where the place is known.
    public var description: String {
        problems.map { problem in
            let place = problem.line.map { line in "\(file):\(line):\(problem.column ?? 1)" } ?? file
            return "\(place): \(problem)"
        }.joined(separator: "\n")
    }
}
