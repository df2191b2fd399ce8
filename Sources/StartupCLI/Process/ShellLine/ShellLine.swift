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
    private static let shellSyntaxBytes = ASCIISet("'\"`\\$;&|<>(){}*?[]~#!^\n\r")

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
        var shellPlan: ExecutionPlan { ExecutionPlan(arguments: [shellPath, "-c", line], usesShell: true) }
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

/// A set of ASCII bytes, tested with a shift and a mask rather than a hash: the splitter tests every byte of
/// every `run` line.
private struct ASCIISet {
    /// Bit `b` of `low` is byte `b`; bit `b` of `high`, byte `64 + b`.
    private let low: UInt64
    private let high: UInt64

    /// The set of `characters`' bytes; each must be ASCII.
    init(_ characters: StaticString) {
        var low: UInt64 = 0
        var high: UInt64 = 0
        characters.withUTF8Buffer { bytes in
            for byte in bytes {
                precondition(byte < 128, "ASCIISet holds ASCII bytes only")
                if byte < 64 { low |= 1 << byte } else { high |= 1 << (byte - 64) }
            }
        }
        self.low = low
        self.high = high
    }

    /// Whether `byte` is in the set.
    func contains(_ byte: UInt8) -> Bool {
        byte < 64 ? low & (1 << byte) != 0 : byte < 128 && high & (1 << (byte - 64)) != 0
    }
}
