/// How a child process ended (or why it never started).
package enum Termination: Sendable, Hashable {
    /// The process called `exit` with this status.
    case exited(Int32)
    /// The process was killed by this signal number.
    case signaled(Int32)
    /// No process ran (or it could not be tracked); `errno` is the cause and `message` is user-facing.
    case failedToStart(errno: Int32, message: String)

    /// `true` only for `.exited(0)`.
    package var isSuccess: Bool { self == .exited(0) }

    /// Decodes a raw `waitpid` status (same encoding on Linux and Darwin; the W* macros are not imported).
    package init(waitStatus status: Int32) {
        let low = status & 0x7f
        if low == 0 {
            self = .exited((status >> 8) & 0xff)
        } else {
            self = .signaled(low)
        }
    }
}
