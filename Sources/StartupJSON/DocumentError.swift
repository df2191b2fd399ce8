import StartupKit
import StartupSupport

/// A JSON document of this package (a manifest, a saved run report) could not be used: the file
/// could not be read, or its content is not valid. Both documents are read and checked the same
/// way; StartupManifest names it `ManifestError`, StartupReporting `ReportError`.
public struct DocumentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: Hashable, Sendable { case unreadable, invalid }
        private let value: Value

        /// The file is missing, a directory, or cannot be read.
        public static let unreadable = Code(value: .unreadable)
        /// The file was read but its content is not valid.
        public static let invalid = Code(value: .invalid)

        /// The code's name.
        public var description: String { "\(value)" }
    }

    /// Which kind of failure.
    public let code: Code
    /// The file's path as given, or a name such as `<stdin>`.
    public let file: String
    /// Every problem found, in document order.
    public let problems: [DocumentProblem]

    /// Creates an error.
    public init(code: Code, file: String, problems: [DocumentProblem]) {
        self.code = code
        self.file = file
        self.problems = problems
    }

    /// One line per problem, each starting `file:line:column:` where the place is known.
    public var description: String {
        let file = MessageQuoting.escaped(file)
        return problems.map { problem in
            let place = problem.line.map { line in "\(file):\(line):\(problem.column ?? 1)" } ?? file
            return "\(place): \(problem)"
        }.joined(separator: "\n")
    }
}
