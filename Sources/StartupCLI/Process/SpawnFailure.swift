import StartupKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a child could not be started: an errno plus a user-facing message.
struct SpawnFailure: Error, Sendable, Hashable {
    /// The errno describing the failure.
    var errno: Int32
    /// A message such as `cannot run "foo": No such file or directory`; user data in it is quoted with
    /// `MessageQuoting` (control characters escaped, long values cut).
    var message: String

    /// A failure to execute `program`.
    static func cannotRun(_ program: String, errno code: Int32) -> SpawnFailure {
        SpawnFailure(errno: code, message: "cannot run \(MessageQuoting.quoted(program)): \(errnoDescription(code))")
    }

    /// A failure to enter the working directory `directory`.
    static func cannotChangeDirectory(_ directory: String, errno code: Int32) -> SpawnFailure {
        SpawnFailure(errno: code, message: "cannot change directory to \(MessageQuoting.quoted(directory)): \(errnoDescription(code))")
    }

    /// The `Termination` reporting this failure.
    var termination: Termination { .failedToStart(errno: errno, message: message) }
}

/// Human-readable text for an errno value, e.g. "No such file or directory".
func errnoDescription(_ code: Int32) -> String {
    String(cString: strerror(code))
}
