/// A position in a JSON document, for messages that point a person at the right spot.
///
/// Both numbers are 1-based. A line ends at each line feed (`\n`; a `\r\n` pair therefore ends one
/// line, and a lone `\r` ends none). The column counts Unicode scalars, not bytes, so `"é"` is one
/// column and a tab is one column; a UTF-8 byte order mark at the start of the document is not counted.
package struct JSONLocation: Sendable, Hashable, CustomStringConvertible {
    /// The 1-based line number.
    package var line: Int
    /// The 1-based column, counted in Unicode scalars from the start of the line.
    package var column: Int

    /// Creates a location from a 1-based line and column.
    package init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// `line:column`, e.g. `3:14`.
    package var description: String { "\(line):\(column)" }
}

/// A JSON value as written in the document, with arrays and objects keeping the location of each part.
package indirect enum JSONValue: Sendable, Equatable {
    /// The literal `null`.
    case null
    /// The literal `true` or `false`.
    case bool(Bool)
    /// A number, kept as written so integers, floats and big values stay distinguishable.
    case number(JSONNumber)
    /// A string with its escapes decoded.
    case string(String)
    /// An array's elements in document order.
    case array([JSONElement])
    /// An object's members in document order, duplicates included.
    case object([JSONMember])

    /// The kind of value with its article, for messages such as `expected a string, found a number`.
    package var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A JSON number literal, kept exactly as written (`1`, `-0.5`, `1e3`, `123456789012345678901234567890`).
///
/// Equality and hashing compare the literal text, so `1`, `1.0` and `1e0` are three different numbers.
package struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The literal exactly as it appears in the document.
    package let text: String

    /// Creates a number from a literal the parser has already checked against the JSON grammar.
    init(validatedText: String) {
        self.text = validatedText
    }

    /// Creates a number from `text`, or returns `nil` when `text` is not a valid JSON number literal
    /// (no leading `+`, no leading zeros, no `NaN` or `Infinity`, no surrounding whitespace).
    package init?(_ text: String) {
        let bytes = Array(text.utf8)
        let isValid = bytes.withUnsafeBufferPointer { buffer in
            if case .valid(end: buffer.count) = JSONParser.scanNumber(in: buffer, from: 0) { true } else { false }
        }
        guard isValid else { return nil }
        self.text = text
    }

    /// True when the literal has no fraction and no exponent (`42`, `-7`), whatever its size.
    package var isIntegerLiteral: Bool {
        !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
    }

    /// The value as an `Int` when the literal is an integer literal that fits in `Int`; otherwise `nil`
    /// (`1.0`, `1e3` and `9223372036854775808` all give `nil`).
    package var integerValue: Int? {
        isIntegerLiteral ? Int(text) : nil
    }

    /// The nearest `Double`; literals beyond its range give `±infinity` or `±0`.
    package var doubleValue: Double {
        // The grammar the parser enforces is a subset of what `Double.init?(_:)` accepts.
        Double(text) ?? .nan
    }

    /// The literal text.
    package var description: String { text }
}

/// One element of a JSON array and where it starts.
package struct JSONElement: Sendable, Equatable {
    /// The element's value.
    package var value: JSONValue
    /// The location of the element's first character.
    package var location: JSONLocation

    /// Creates an element from a value and the location of its first character.
    package init(value: JSONValue, location: JSONLocation) {
        self.value = value
        self.location = location
    }
}

/// One `"key": value` member of a JSON object, with where the key and the value start.
package struct JSONMember: Sendable, Equatable {
    /// The decoded key.
    package var key: String
    /// The location of the key's opening quote.
    package var keyLocation: JSONLocation
    /// The member's value.
    package var value: JSONValue
    /// The location of the value's first character.
    package var valueLocation: JSONLocation

    /// Creates a member from its key, its value and where each starts.
    package init(key: String, keyLocation: JSONLocation, value: JSONValue, valueLocation: JSONLocation) {
        self.key = key
        self.keyLocation = keyLocation
        self.value = value
        self.valueLocation = valueLocation
    }
}
