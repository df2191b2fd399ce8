import StartupKit

/// A manifest (or a saved run report, ``RunRecordError``) could not be used: the file could not be
/// read, or its content is not valid.
public struct ManifestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: Hashable, Sendable { case unreadable, invalid }
        private let value: Value

        /// The file is missing, a directory, or cannot be read (the CLI exits 66).
        public static let unreadable = Code(value: .unreadable)
        /// The file was read but is not a valid manifest (the CLI exits 65).
        public static let invalid = Code(value: .invalid)

        /// The code's name.
        public var description: String { "\(value)" }
    }

    /// Which kind of failure.
    public let code: Code
    /// The file's path as given, or a name such as `<stdin>`.
    public let file: String
    /// Every problem found, in document order.
    public let problems: [ManifestProblem]

    /// Creates an error.
    public init(code: Code, file: String, problems: [ManifestProblem]) {
        self.code = code
        self.file = file
        self.problems = problems
    }

    /// One line per problem, each starting `file:line:column:` where the place is known.
    public var description: String {
        problems.map { problem in
            let file = MessageQuoting.escaped(file)
            let place = problem.line.map { line in "\(file):\(line):\(problem.column ?? 1)" } ?? file
            return "\(place): \(problem)"
        }.joined(separator: "\n")
    }
}
