/// What a command id may be, for the plan builder, a manifest and a saved report alike: 1 to 200
/// characters, without spaces or control characters, so that every id can be shown on one line
/// of a terminal or a log and typed back as an argument.
package enum CommandIDRule {
    /// The longest id, in Unicode scalars.
    package static let maximumLength = 200

    /// Why `text` cannot be a command id, as a message; `nil` when it can.
    package static func problem(with text: String) -> String? {
        isValid(text)
            ? nil
            : "invalid command id \(MessageQuoting.quoted(text)): use 1 to \(maximumLength) characters without spaces or control characters"
    }

    private static func isValid(_ text: String) -> Bool {
        // Printable ASCII, the usual case, is checked byte by byte; anything else by Unicode properties.
        let utf8 = text.utf8
        if utf8.count <= maximumLength, utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) { return !utf8.isEmpty }
        return !text.isEmpty
            && !text.unicodeScalars.dropFirst(maximumLength).contains { _ in true }
            && !text.unicodeScalars.contains { $0.properties.isWhitespace || $0.properties.generalCategory == .control }
    }
}
