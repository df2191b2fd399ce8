import StartupKit
import StartupSupport

/// Reads the text of an env file (`"envFile"` in a manifest) into variables.
///
/// It lives in the CLI, not in StartupManifest: the manifest module is the model of `commands.json`, which only
/// names env files (``ManifestCommand/environmentFiles``); `startup run` reads them from disk when it starts the
/// commands' processes, and an app that binds a manifest to Swift code never needs them.
///
/// The syntax, line by line (LF or CRLF):
/// - Blank lines and lines whose first character is `#` are skipped; whitespace around the line is ignored.
/// - `NAME=value`, with an optional leading `export `; whitespace around the name is ignored. A name is letters,
///   digits and underscores, not starting with a digit.
/// - An unquoted value is trimmed and ends at ` #` (whitespace, then a comment).
/// - `'value'` is taken literally; `"value"` reads `\n`, `\"` and `\\` as escapes and keeps the backslash of any
///   other. A quoted value is one line and ends at its closing quote, which only whitespace or a ` #` comment may
///   follow.
/// - Nothing is interpolated: `$HOME` is five characters.
///
/// A later line wins over an earlier one with the same name.
enum EnvFileParser {
    /// The variables `bytes` define, and every line that could not be read (none when the file is valid).
    ///
    /// - Parameter bytes: The file's content, UTF-8 (a leading byte order mark is skipped).
    /// - Complexity: O(*n*) in the length of the file.
    static func parse(_ bytes: [UInt8]) -> (variables: [String: String], problems: [EnvFileProblem]) {
        var variables: [String: String] = [:]
        var problems: [EnvFileProblem] = []
        var start = bytes.starts(with: byteOrderMark) ? byteOrderMark.count : 0
        var number = 0
        while start < bytes.count {
            number += 1
            let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            var end = newline
            if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            let line = bytes[start..<end]
            start = newline + 1
            do throws(LineError) {
                if let (name, value) = try variable(in: line) { variables[name] = value }
            } catch {
                problems.append(EnvFileProblem(line: number, message: error.message))
            }
        }
        return (variables, problems)
    }

    /// The UTF-8 byte order mark some editors write at the start of a file.
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Why a line cannot be read.
    private struct LineError: Error {
        let message: String
    }

    /// The variable one line defines, or `nil` for a blank line or a comment.
    private static func variable(in line: ArraySlice<UInt8>) throws(LineError) -> (name: String, value: String)? {
        let text = String(decoding: line, as: UTF8.self)
        guard text.utf8.elementsEqual(line) else { throw LineError(message: "the line is not valid UTF-8") }
        let scalars = Array(text.unicodeScalars)
        var start = 0
        var end = scalars.count
        while start < end, isBlank(scalars[start]) { start += 1 }
        while end > start, isBlank(scalars[end - 1]) { end -= 1 }
        guard start < end, scalars[start] != "#" else { return nil }
        let written = String(String.UnicodeScalarView(scalars[start..<end]))

        var nameStart = start
        if end - start > exportKeyword.count, Array(scalars[start..<start + exportKeyword.count]) == exportKeyword,
            isBlank(scalars[start + exportKeyword.count])
        {
            nameStart += exportKeyword.count
            while nameStart < end, isBlank(scalars[nameStart]) { nameStart += 1 }
        }
        guard let equals = scalars[nameStart..<end].firstIndex(of: "=") else {
            throw LineError(message: "missing \"=\" in \(MessageQuoting.quoted(written)); write NAME=value")
        }
        var nameEnd = equals
        while nameEnd > nameStart, isBlank(scalars[nameEnd - 1]) { nameEnd -= 1 }
        let name = String(String.UnicodeScalarView(scalars[nameStart..<nameEnd]))
        guard !name.isEmpty else {
            throw LineError(message: "missing the variable's name before \"=\" in \(MessageQuoting.quoted(written))")
        }
        guard isName(name) else {
            throw LineError(
                message: "invalid variable name \(MessageQuoting.quoted(name)): a name is letters, digits and underscores, "
                    + "not starting with a digit")
        }

        var valueStart = equals + 1
        while valueStart < end, isBlank(scalars[valueStart]) { valueStart += 1 }
        let value: String
        if valueStart < end, scalars[valueStart] == "'" || scalars[valueStart] == "\"" {
            value = try quotedValue(scalars, from: valueStart, to: end)
        } else {
            value = unquotedValue(scalars, from: equals + 1, to: end)
        }
        guard !value.unicodeScalars.contains("\0") else {
            throw LineError(message: "the value of \(name) contains a NUL character, which no environment variable can hold")
        }
        return (name, value)
    }

    /// `export` followed by whitespace starts a line the shell way; the word is dropped.
    private static let exportKeyword = Array("export".unicodeScalars)

    /// An unquoted value: `scalars[start..<end]` up to a ` #` comment, trimmed.
    private static func unquotedValue(_ scalars: [Unicode.Scalar], from start: Int, to end: Int) -> String {
        var stop = end
        var index = start + 1
        while index < end {
            if scalars[index] == "#", isBlank(scalars[index - 1]) {
                stop = index
                break
            }
            index += 1
        }
        var first = start
        while first < stop, isBlank(scalars[first]) { first += 1 }
        while stop > first, isBlank(scalars[stop - 1]) { stop -= 1 }
        return String(String.UnicodeScalarView(scalars[first..<stop]))
    }

    /// A value in single or double quotes opening at `scalars[start]`, checking that only whitespace or a ` #`
    /// comment follows its closing quote before `end`.
    private static func quotedValue(_ scalars: [Unicode.Scalar], from start: Int, to end: Int) throws(LineError) -> String {
        let quote = scalars[start]
        var value = String.UnicodeScalarView()
        var index = start + 1
        var closing: Int?
        while index < end {
            let scalar = scalars[index]
            if scalar == quote {
                closing = index
                break
            }
            if quote == "\"", scalar == "\\", index + 1 < end {
                switch scalars[index + 1] {
                case "n": value.append("\n")
                case "\"": value.append("\"")
                case "\\": value.append("\\")
                default: value.append(contentsOf: [scalar, scalars[index + 1]])
                }
                index += 2
                continue
            }
            value.append(scalar)
            index += 1
        }
        let kind = quote == "'" ? "single-quoted" : "double-quoted"
        guard let closing else {
            throw LineError(message: "unterminated \(kind) value: add the closing \(quote) (a quoted value is one line)")
        }
        var rest = closing + 1
        while rest < end, isBlank(scalars[rest]) { rest += 1 }
        guard rest == end || (scalars[rest] == "#" && rest > closing + 1) else {
            let after = String(String.UnicodeScalarView(scalars[(closing + 1)..<end]))
            throw LineError(
                message: "unexpected text \(MessageQuoting.quoted(after)) after the closing \(quote) of a \(kind) value; "
                    + "only a comment (\" #\") may follow it")
        }
        return String(value)
    }

    /// A space or a tab.
    private static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t"
    }

    /// Whether `name` is letters, digits and underscores (ASCII), not starting with a digit.
    private static func isName(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "_"):
                true
            default:
                false
            }
        }
    }
}
