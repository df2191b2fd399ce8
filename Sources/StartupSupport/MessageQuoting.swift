/// The one way a message quotes user data (ids, keys, values, paths, arguments, a command's
/// output): control characters are escaped as in JSON, so no terminal escape sequence from a
/// manifest or an argument reaches the screen, and very long values are cut with a note of their
/// length.
///
/// ```swift
/// MessageQuoting.quoted("db\u{1B}[31m")   // "db\u001B[31m"
/// MessageQuoting.quoted(tenMegabyteID)    // "xxxx…" (10485760 characters)
/// ```
package enum MessageQuoting {
    /// How many Unicode scalars of a value a message shows before cutting it: a valid command id
    /// (at most 200) is always shown whole.
    package static let lengthLimit = 200

    /// `text` in double quotes, escaped and cut: `"db\u001B[31m"`, `"xxxx…" (10485760 characters)`.
    ///
    /// - Complexity: O(*n*) to count a long value's length; the escaping itself looks at no more
    ///   than ``lengthLimit`` scalars.
    package static func quoted(_ text: some StringProtocol) -> String {
        let (shown, length) = escape(text, quotes: true)
        return "\"" + shown + "\"" + note(length)
    }

    /// `text` escaped and cut, without quotes: for numbers, lines of output and other values that a
    /// message shows bare.
    package static func escaped(_ text: some StringProtocol) -> String {
        let (shown, length) = escape(text, quotes: false)
        return shown + note(length)
    }

    /// The escaped first ``lengthLimit`` scalars (with `…` when there are more), and the whole
    /// length when the text was cut.
    private static func escape(_ text: some StringProtocol, quotes: Bool) -> (shown: String, cutLength: Int?) {
        var shown = ""
        var count = 0
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard count < lengthLimit else {
                var length = count + 1
                while scalars.next() != nil { length += 1 }
                return (shown + "…", length)
            }
            count += 1
            switch scalar {
            case "\\": shown += "\\\\"
            case "\"" where quotes: shown += "\\\""
            case "\n": shown += "\\n"
            case "\r": shown += "\\r"
            case "\t": shown += "\\t"
            default:
                if needsEscape(scalar) {
                    let digits = String(scalar.value, radix: 16, uppercase: true)
                    shown += "\\u" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
                } else {
                    shown.unicodeScalars.append(scalar)
                }
            }
        }
        return (shown, nil)
    }

    private static func note(_ cutLength: Int?) -> String {
        cutLength.map { " (\($0) characters)" } ?? ""
    }

    /// Control characters (C0, DEL, C1), line and paragraph separators, and the bidirectional
    /// controls that can make text read differently from what it is.
    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
            true
        default:
            false
        }
    }
}
