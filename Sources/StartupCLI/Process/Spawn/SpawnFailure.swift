import StartupKit
import StartupSupport

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

    /// A failure to execute `program` with `arguments` and `environment`: as ``cannotRun(_:errno:)``, except that
    /// when the system refused them as too large (`E2BIG`, "Argument list too long") the message says so, with
    /// their sizes and the system's limits: `cannot run "echo": its environment is too large to start a program
    /// (environment 15.2 MiB in 12 variables, the largest "BIG" of 15.2 MiB; its arguments 10 bytes); the system
    /// takes at most 2 MiB in all, and 128 KiB in one variable or argument`.
    static func cannotRun(_ program: String, errno code: Int32, arguments: [String], environment: [String: String]) -> SpawnFailure {
        guard code == E2BIG else { return cannotRun(program, errno: code) }
        // What `execve` counts: each string with its NUL byte.
        let environmentSizes = environment.map { (name: $0.key, bytes: $0.key.utf8.count + $0.value.utf8.count + 2) }
        let environmentBytes = environmentSizes.reduce(0) { $0 + $1.bytes }
        let argumentBytes = arguments.reduce(0) { $0 + $1.utf8.count + 1 }
        let largest = environmentSizes.max { $0.bytes < $1.bytes }
        let what = environmentBytes >= argumentBytes ? "environment" : "arguments"
        var sizes = "\(byteText(environmentBytes)) in \(environment.count) variable\(environment.count == 1 ? "" : "s")"
        if let largest { sizes += ", the largest \(MessageQuoting.quoted(largest.name)) of \(byteText(largest.bytes))" }
        sizes += "; its arguments \(byteText(argumentBytes))"
        var limits = ""
        let total = sysconf(Int32(_SC_ARG_MAX))
        if total > 0 { limits = "; the system takes at most \(byteText(total)) in all" }
        #if os(Linux)
            // MAX_ARG_STRLEN: 32 pages (128 KiB with pages of 4 KiB).
            let one = 32 * sysconf(Int32(_SC_PAGESIZE))
            if one > 0 {
                limits += (limits.isEmpty ? "; the system takes at most " : ", and ") + "\(byteText(one)) in one variable or argument"
            }
        #endif
        return SpawnFailure(
            errno: code,
            message:
                "cannot run \(MessageQuoting.quoted(program)): its \(what) \(what == "arguments" ? "are" : "is") too large to start a program "
                + "(environment \(sizes))\(limits)")
    }

    /// `512 bytes`, `128 KiB`, `15.2 MiB`.
    private static func byteText(_ bytes: Int) -> String {
        if bytes < 1_024 { return "\(bytes) bytes" }
        let (value, unit) = bytes < 1 << 20 ? (Double(bytes) / 1_024, "KiB") : (Double(bytes) / Double(1 << 20), "MiB")
        let tenths = Int((value * 10).rounded())
        return tenths % 10 == 0 ? "\(tenths / 10) \(unit)" : "\(tenths / 10).\(tenths % 10) \(unit)"
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
