/// The tool's own messages on standard error. Every message is printed here, each kind with its
/// one prefix on every line, so messages read the same wherever they come from and a search for
/// the prefix finds them all:
/// - `error:` what failed; the exit code says so too.
/// - `warning:` what is wrong while the tool goes on.
/// - `startup:` the tool's account of a run, among the commands' own lines.
extension Console {
    /// Prints an error; `details` (an indented list of problems, a usage hint) follows as is.
    package func error(_ message: String, details: String? = nil) {
        writeMessage(message, prefix: "error: ", details: details)
    }

    /// Prints a warning: something is wrong, and the tool goes on.
    package func warning(_ message: String) {
        writeMessage(message, prefix: "warning: ", details: nil)
    }

    /// Prints the tool's account of a run (a command not run, a reload, a wait), among the
    /// commands' own lines.
    package func notice(_ message: String) {
        writeMessage(message, prefix: "startup: ", details: nil)
    }

    /// The prefix before each line of `message` (a line break at its end makes no empty line), `details` after it,
    /// in one write.
    private func writeMessage(_ message: String, prefix: String, details: String?) {
        var text = ""
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false)
        for line in lines.last == "" && lines.count > 1 ? lines.dropLast() : lines[...] {
            text += prefix + line + "\n"
        }
        if let details, !details.isEmpty { text += details.hasSuffix("\n") ? details : details + "\n" }
        err(text)
    }
}
