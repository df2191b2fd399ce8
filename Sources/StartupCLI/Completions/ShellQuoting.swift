/// Text quoted for the shells' completion scripts.
enum ShellQuoting {
    /// `text` in single quotes for bash and zsh: `it's` becomes `'it'\''s'`.
    static func singleQuoted(_ text: String) -> String {
        "'" + text.replacing("'", with: #"'\''"#) + "'"
    }

    /// `text` in single quotes for fish, where a backslash escapes a quote or a backslash.
    static func fishQuoted(_ text: String) -> String {
        "'" + text.replacing(#"\"#, with: #"\\"#).replacing("'", with: #"\'"#) + "'"
    }

    /// The first line of an option's help, as a completion menu shows it.
    static func summary(of help: String) -> String {
        String(help.prefix { $0 != "\n" })
    }
}
