import StartupKit

/// Env files that `startup run` could not use, in the order the manifest names them, each file once. Data only:
/// ``EnvFileLoading`` turns it into messages and an exit code.
struct EnvFileError: Error, Sendable, Hashable {
    /// One file that could not be used.
    enum Failure: Sendable, Hashable {
        /// The file is missing, a directory, unreadable or too large (`reason`); `namedBy` is the command whose
        /// `envFile` names it first, `nil` for the defaults'.
        case unreadable(file: String, namedBy: CommandID?, reason: String)
        /// The file was read, but these lines of it are not `NAME=value`.
        case invalid(file: String, problems: [EnvFileProblem])
    }

    /// Every file that could not be used; never empty.
    let failures: [Failure]

    /// Whether some file could not be read at all, rather than read with bad lines.
    var hasUnreadableFile: Bool {
        failures.contains { failure in
            if case .unreadable = failure { true } else { false }
        }
    }
}
