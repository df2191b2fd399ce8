/// How a manifest `run` line will be executed: the argv to spawn and whether it goes through `/bin/sh -c`.
package struct ExecutionPlan: Sendable, Hashable {
    /// The argv to spawn; `arguments[0]` is looked up in PATH when it contains no slash.
    package var arguments: [String]
    /// `true` when the line is handed to `/bin/sh -c` because it needs shell semantics.
    package var usesShell: Bool

    /// Creates a plan from an explicit argv.
    package init(arguments: [String], usesShell: Bool) {
        self.arguments = arguments
        self.usesShell = usesShell
    }
}

/// Decides, like GNU make, whether a `run` line can be exec'd directly (split on blanks) or needs `/bin/sh -c`.
package enum CommandLineSplitter {
    /// The shell used for lines that need shell semantics.
    package static let shellPath = "/bin/sh"

    /// Bytes that give a line shell meaning anywhere in it (quoting, expansion, redirection, globbing, control
    /// operators, comments, history/negation). `=` is handled separately: it only matters in the first word.
    private static let shellSyntaxBytes: Set<UInt8> = Set("'\"`\\$;&|<>(){}*?[]~#!^\n\r".utf8)

    /// First words that are shell reserved words or builtins (they either do not exist as programs or only make
    /// sense inside a shell), so the line must go through the shell.
    private static let shellFirstWords: Set<String> = [
        // reserved words
        "!", "{", "}", "[[", "]]", "case", "do", "done", "elif", "else", "esac", "fi", "for", "function", "if",
        "in", "select", "then", "time", "until", "while",
        // special builtins
        ".", ":", "break", "continue", "eval", "exec", "exit", "export", "readonly", "return", "set", "shift",
        "times", "trap", "unset",
        // regular builtins that change shell state or have no binary / a different binary
        "alias", "bg", "cd", "command", "declare", "fc", "fg", "getopts", "hash", "jobs", "let", "local",
        "login", "logout", "read", "source", "test", "[", "type", "typeset", "ulimit", "umask", "unalias", "wait",
    ]

    /// Returns how to execute `line`: a direct argv when it has no shell syntax, otherwise `/bin/sh -c line`.
    package static func plan(for line: String) -> ExecutionPlan {
        let shellPlan = ExecutionPlan(arguments: [shellPath, "-c", line], usesShell: true)
        var words: [String] = []
        var wordStart: String.UTF8View.Index? = nil
        let utf8 = line.utf8
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
                if let start = wordStart {
                    words.append(String(line[start..<index]))
                    wordStart = nil
                }
            } else {
                if shellSyntaxBytes.contains(byte) { return shellPlan }
                // `NAME=value cmd` is an assignment prefix; `cmd --flag=value` is a plain argument.
                if byte == UInt8(ascii: "="), words.isEmpty { return shellPlan }
                if wordStart == nil { wordStart = index }
            }
            index = utf8.index(after: index)
        }
        if let start = wordStart { words.append(String(line[start..<utf8.endIndex])) }
        guard let first = words.first, !shellFirstWords.contains(first) else { return shellPlan }
        return ExecutionPlan(arguments: words, usesShell: false)
    }
}
