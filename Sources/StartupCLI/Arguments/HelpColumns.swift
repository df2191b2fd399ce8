/// Lays out help as two columns: a name on the left, its text on the right, wrapped to the help's
/// width.
enum HelpColumns {
    /// The widest line of generated help.
    static let width = 98
    /// Where the text of a subcommand's options begins.
    static let optionColumn = 26

    /// The section of `options`, headed `OPTIONS:`, with their text at `column`.
    static func options(_ options: [OptionDescriptor], column: Int = optionColumn) -> String {
        "OPTIONS:\n" + rows(options.map { ($0.label, $0.help) }, column: column)
    }

    /// One row per `(name, text)`, each indented by two spaces, its text starting at `column` (on
    /// the next line if the name reaches it). The text is wrapped to ``width``; a line break in it
    /// starts a new line, and a line that starts with a space is kept as written. No line break at
    /// the end.
    static func rows(_ rows: [(name: String, text: String)], column: Int) -> String {
        var lines: [String] = []
        for (name, text) in rows {
            let indent = String(repeating: " ", count: column)
            var body = text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line in
                line.hasPrefix(" ") ? [String(line)] : wrapped(String(line), width: width - column)
            }
            let label = "  " + name
            if label.count + 2 > column || body.isEmpty {
                lines.append(label)
            } else {
                lines.append(label + String(repeating: " ", count: column - label.count) + body.removeFirst())
            }
            lines += body.map { indent + $0 }
        }
        return lines.joined(separator: "\n")
    }

    /// `text` broken into lines of at most `width` characters, at spaces (a longer word has a line
    /// of its own).
    static func wrapped(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        return lines + (line.isEmpty ? [] : [line])
    }
}
