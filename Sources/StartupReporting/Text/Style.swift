import StartupKit

/// ANSI colours for a terminal, or plain text when colours are off: the CLI's, and plain for
/// ``ReportExport/summary(_:)``, which shares its text.
package struct Style: Sendable {
    /// Whether to colour at all.
    package let enabled: Bool

    /// Colours, or plain text when `enabled` is false.
    package init(enabled: Bool) {
        self.enabled = enabled
    }

    /// No colours.
    package static let plain = Style(enabled: false)

    package func green(_ text: String) -> String { paint(text, "32") }
    package func red(_ text: String) -> String { paint(text, "31") }
    package func yellow(_ text: String) -> String { paint(text, "33") }
    package func dim(_ text: String) -> String { paint(text, "2") }
    package func bold(_ text: String) -> String { paint(text, "1") }

    /// The mark and colour of a command's status: `✓` green, `✗` red, `⏱` yellow, `-` dim.
    package func mark(_ status: CommandStatus) -> String {
        switch status {
        case .succeeded: green("✓")
        case .failed: red("✗")
        case .timedOut: red("⏱")
        case .skipped, .notRequested: dim("-")
        case .cancelled: yellow("⊘")
        }
    }

    private func paint(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}

extension String {
    /// The text padded with spaces to `width` characters (never cut).
    package func padded(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }

    /// The text right-aligned in `width` characters (never cut).
    package func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
