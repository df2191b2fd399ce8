/// A strict RFC 8259 JSON parser that keeps what a manifest validator needs: the location of every
/// value and key, members in document order with duplicates, and numbers exactly as written.
///
/// Accepts exactly RFC 8259 JSON in UTF-8, plus an optional UTF-8 byte order mark at the start.
/// Rejects comments, trailing commas, `NaN`/`Infinity`, leading zeros, unescaped control characters,
/// lone UTF-16 surrogates in `\u` escapes and invalid UTF-8, each with a `JSONSyntaxError` that says
/// where and why.
package struct JSONParser {
    /// Parses `bytes` as one UTF-8 JSON document.
    ///
    /// - Parameters:
    ///   - bytes: The document's bytes, UTF-8, optionally starting with a byte order mark.
    ///   - maxDepth: How many arrays and objects may be nested inside each other; a scalar at the root
    ///     has depth 0 and `[[1]]` has depth 2. Deeper input throws `nestingTooDeep`. Keep it modest:
    ///     the parser itself never recurses, but destroying or comparing a `JSONValue` recurses once per
    ///     level.
    /// - Returns: The root value and the location of its first character.
    /// - Throws: `JSONSyntaxError` describing the first problem found.
    /// - Complexity: O(n) in the number of bytes.
    package static func parse(_ bytes: [UInt8], maxDepth: Int = 64) throws(JSONSyntaxError) -> JSONElement {
        precondition(maxDepth >= 0, "maxDepth must not be negative")
        return try bytes.withUnsafeBufferPointer { (buffer) throws(JSONSyntaxError) -> JSONElement in
            var parser = Parser(bytes: buffer, maxDepth: maxDepth)
            return try parser.parseDocument()
        }
    }

    /// The outcome of scanning a number literal.
    enum NumberScan: Equatable {
        /// A valid literal ends just before `end`.
        case valid(end: Int)
        /// The literal starting at the scanned offset is not valid JSON.
        case invalid(JSONSyntaxError.NumberProblem)
    }

    /// Scans the number literal starting at `start` (RFC 8259: `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`).
    ///
    /// A literal directly followed by a letter, digit, `_`, `.`, `+` or `-` (`1.5.3`, `0x1F`) is invalid.
    static func scanNumber(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> NumberScan {
        let count = bytes.count
        func isDigit(_ offset: Int) -> Bool {
            offset < count && bytes[offset] &- UInt8(ascii: "0") < 10
        }
        var offset = start
        if offset < count {
            switch bytes[offset] {
            case UInt8(ascii: "+"): return .invalid(.leadingPlus)
            case UInt8(ascii: "."): return .invalid(.missingIntegerPart)
            case UInt8(ascii: "-"): offset += 1
            default: break
            }
        }
        guard isDigit(offset) else { return .invalid(.missingDigitAfterMinus) }
        if bytes[offset] == UInt8(ascii: "0") {
            offset += 1
            if isDigit(offset) { return .invalid(.leadingZero) }
        } else {
            while isDigit(offset) { offset += 1 }
        }
        if offset < count, bytes[offset] == UInt8(ascii: ".") {
            offset += 1
            guard isDigit(offset) else { return .invalid(.missingFractionDigits) }
            while isDigit(offset) { offset += 1 }
        }
        if offset < count, bytes[offset] | 0x20 == UInt8(ascii: "e") {
            offset += 1
            if offset < count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") {
                offset += 1
            }
            guard isDigit(offset) else { return .invalid(.missingExponentDigits) }
            while isDigit(offset) { offset += 1 }
        }
        if offset < count, isNumberLike(bytes[offset]) { return .invalid(.unexpectedCharacters) }
        return .valid(end: offset)
    }

    /// Bytes that continue a number-like token: ASCII letters and digits, `_`, `.`, `+` and `-`.
    static func isNumberLike(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"), UInt8(ascii: "."),
            UInt8(ascii: "+"), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }
}

/// An array or object whose closing bracket has not been reached yet.
private struct OpenContainer {
    let isObject: Bool
    let location: JSONLocation
    var elements: [JSONElement] = []
    var members: [JSONMember] = []
    var pendingKey = ""
    var pendingKeyLocation = JSONLocation(line: 0, column: 0)

    var closer: UInt8 { isObject ? UInt8(ascii: "}") : UInt8(ascii: "]") }
    var afterItem: JSONSyntaxError.Expectation { isObject ? .commaOrObjectEnd : .commaOrArrayEnd }
    var value: JSONValue { isObject ? .object(members) : .array(elements) }

    /// Room for a few items, so a small container is one allocation rather than a few as it grows.
    mutating func reserveCapacity() {
        if isObject { members.reserveCapacity(8) } else { elements.reserveCapacity(4) }
    }

    mutating func append(_ element: JSONElement) {
        if isObject {
            members.append(
                JSONMember(
                    key: pendingKey, keyLocation: pendingKeyLocation,
                    value: element.value, valueLocation: element.location))
        } else {
            elements.append(element)
        }
    }
}

/// The parser's state while it walks one buffer; lives only inside `withUnsafeBufferPointer`.
private struct Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    /// 0, or 3 when the document starts with a UTF-8 byte order mark.
    let contentStart: Int
    var index: Int
    /// The current line, advanced by `skipWhitespace`, the only place a line feed can be accepted.
    var line = 1
    /// An offset on the current line whose column is known, so columns are counted incrementally.
    var knownColumnOffset: Int
    var knownColumn = 1
    /// Reused buffer for strings that contain escapes.
    var scratch: [UInt8] = []

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        let hasByteOrderMark = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        contentStart = hasByteOrderMark ? 3 : 0
        index = contentStart
        knownColumnOffset = contentStart
    }

    // MARK: Structure

    /// Parses the whole document with an explicit stack of open containers, so hostile nesting can
    /// only ever reach `maxDepth` and never the call stack.
    mutating func parseDocument() throws(JSONSyntaxError) -> JSONElement {
        skipWhitespace()
        guard index < bytes.count else { throw error(.emptyInput, at: index) }
        var open: [OpenContainer] = []
        var expected = JSONSyntaxError.Expectation.value

        valuePosition: while true {
            let start = index
            let location = location(of: start)
            var completed: JSONElement
            guard start < bytes.count else { throw unexpected(expected, at: start) }

            switch bytes[start] {
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                guard open.count < maxDepth else { throw error(.nestingTooDeep(limit: maxDepth), at: start) }
                var container = OpenContainer(isObject: bytes[start] == UInt8(ascii: "{"), location: location)
                index += 1
                skipWhitespace()
                if index < bytes.count, bytes[index] == container.closer {
                    index += 1
                    completed = JSONElement(value: container.value, location: location)
                } else {
                    container.reserveCapacity()
                    open.append(container)
                    if container.isObject {
                        try parseMemberKey(into: &open[open.count - 1], expected: .memberKeyOrObjectEnd)
                        expected = .value
                    } else {
                        expected = .valueOrArrayEnd
                    }
                    continue valuePosition
                }
            case UInt8(ascii: "\""):
                completed = JSONElement(value: .string(try parseString()), location: location)
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."):
                completed = JSONElement(value: .number(try parseNumber(expected: expected)), location: location)
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                completed = JSONElement(value: try parseLiteral(), location: location)
            default:
                throw unexpected(expected, at: start)
            }

            // Hand the value to its container, closing every container it completes.
            while let top = open.indices.last {
                open[top].append(completed)
                skipWhitespace()
                guard index < bytes.count else { throw unexpected(open[top].afterItem, at: index) }
                if bytes[index] == UInt8(ascii: ",") {
                    let comma = index
                    index += 1
                    skipWhitespace()
                    if index < bytes.count, bytes[index] == open[top].closer {
                        throw error(.trailingComma(before: Unicode.Scalar(open[top].closer)), at: comma)
                    }
                    if open[top].isObject {
                        try parseMemberKey(into: &open[top], expected: .memberKey)
                    }
                    expected = .value
                    continue valuePosition
                }
                guard bytes[index] == open[top].closer else { throw unexpected(open[top].afterItem, at: index) }
                index += 1
                let container = open.removeLast()
                completed = JSONElement(value: container.value, location: container.location)
            }

            skipWhitespace()
            guard index == bytes.count else {
                guard let scalar = scalar(at: index) else { throw error(.invalidUTF8(byte: bytes[index]), at: index) }
                throw error(.trailingContent(scalar), at: index)
            }
            return completed
        }
    }

    /// Parses `"key"` and the `:` after it, leaving `index` at the member's value.
    mutating func parseMemberKey(
        into container: inout OpenContainer,
        expected: JSONSyntaxError.Expectation
    ) throws(JSONSyntaxError) {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw unexpected(expected, at: index) }
        container.pendingKeyLocation = location(of: index)
        container.pendingKey = try parseString()
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw unexpected(.colon, at: index) }
        index += 1
        skipWhitespace()
    }

    /// Skips space, tab, carriage return and line feed, counting lines.
    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                index += 1
            case UInt8(ascii: "\n"):
                index += 1
                line += 1
                knownColumnOffset = index
                knownColumn = 1
            default:
                return
            }
        }
    }

    // MARK: Scalars

    /// Parses `true`, `false` or `null`; any other word is an `invalidLiteral` naming the whole word.
    mutating func parseLiteral() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        while index < bytes.count, isWordByte(bytes[index]) { index += 1 }
        let word = UnsafeBufferPointer(rebasing: bytes[start..<index])
        if word.elementsEqual("true".utf8) { return .bool(true) }
        if word.elementsEqual("false".utf8) { return .bool(false) }
        if word.elementsEqual("null".utf8) { return .null }
        throw error(.invalidLiteral(excerpt(from: start, to: index)), at: start)
    }

    /// ASCII letters, digits and `_`: the bytes of a bare word such as `true` or `undefined`.
    func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"):
            true
        default:
            false
        }
    }

    /// Parses a number literal, keeping its text.
    mutating func parseNumber(expected: JSONSyntaxError.Expectation) throws(JSONSyntaxError) -> JSONNumber {
        let start = index
        switch JSONParser.scanNumber(in: bytes, from: start) {
        case .valid(let end):
            index = end
            return JSONNumber(validatedText: String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
        case .invalid(let problem):
            var end = start + 1
            while end < bytes.count, JSONParser.isNumberLike(bytes[end]) { end += 1 }
            // A lone `+` or `.` is a stray character rather than an attempt at a number.
            if end == start + 1, bytes[start] != UInt8(ascii: "-") { throw unexpected(expected, at: start) }
            throw error(.invalidNumber(excerpt(from: start, to: end), problem), at: start)
        }
    }

    /// Parses a string starting at its opening quote; strings without escapes are decoded in one step.
    mutating func parseString() throws(JSONSyntaxError) -> String {
        let quote = index
        let start = quote + 1
        var offset = start
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                index = offset + 1
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") {
                return try parseEscapedString(quote: quote, firstEscape: offset)
            }
            offset += try validatedCharacterLength(at: offset)
        }
        throw error(.unterminatedString, at: quote)
    }

    /// Finishes a string that contains at least one escape, copying runs of plain bytes in bulk.
    mutating func parseEscapedString(quote: Int, firstEscape: Int) throws(JSONSyntaxError) -> String {
        scratch.removeAll(keepingCapacity: true)
        var runStart = quote + 1
        var offset = firstEscape
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<offset]))
                if byte == UInt8(ascii: "\"") {
                    index = offset + 1
                    return String(decoding: scratch, as: UTF8.self)
                }
                offset = try decodeEscape(at: offset, quote: quote)
                runStart = offset
            } else {
                offset += try validatedCharacterLength(at: offset)
            }
        }
        throw error(.unterminatedString, at: quote)
    }

    /// Checks one unescaped character inside a string and returns its length in bytes.
    func validatedCharacterLength(at offset: Int) throws(JSONSyntaxError) -> Int {
        let byte = bytes[offset]
        if byte < 0x20 { throw error(.controlCharacterInString(byte), at: offset) }
        if byte < 0x80 { return 1 }
        guard let length = utf8SequenceLength(at: offset) else { throw error(.invalidUTF8(byte: byte), at: offset) }
        return length
    }

    /// Decodes the escape whose backslash is at `backslash` into `scratch`; returns the offset after it.
    mutating func decodeEscape(at backslash: Int, quote: Int) throws(JSONSyntaxError) -> Int {
        guard backslash + 1 < bytes.count else { throw error(.unterminatedString, at: quote) }
        let simple: UInt8
        switch bytes[backslash + 1] {
        case UInt8(ascii: "\""): simple = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): simple = UInt8(ascii: "\\")
        case UInt8(ascii: "/"): simple = UInt8(ascii: "/")
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"):
            return try decodeUnicodeEscape(at: backslash)
        default:
            guard let scalar = scalar(at: backslash + 1) else {
                throw error(.invalidUTF8(byte: bytes[backslash + 1]), at: backslash + 1)
            }
            throw error(.invalidEscape(scalar), at: backslash)
        }
        scratch.append(simple)
        return backslash + 2
    }

    /// Decodes `\uXXXX`, or a `\uXXXX\uXXXX` surrogate pair, into `scratch`; returns the offset after it.
    mutating func decodeUnicodeEscape(at backslash: Int) throws(JSONSyntaxError) -> Int {
        guard let unit = hexQuad(at: backslash + 2) else { throw error(.invalidUnicodeEscape, at: backslash) }
        var end = backslash + 6
        var value = UInt32(unit)
        switch unit {
        case 0xD800...0xDBFF:
            guard end + 1 < bytes.count, bytes[end] == UInt8(ascii: "\\"), bytes[end + 1] == UInt8(ascii: "u") else {
                throw error(.loneSurrogate(unit), at: backslash)
            }
            guard let low = hexQuad(at: end + 2) else { throw error(.invalidUnicodeEscape, at: end) }
            guard (0xDC00...0xDFFF).contains(low) else { throw error(.loneSurrogate(unit), at: backslash) }
            value = 0x10000 + ((value - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            end += 6
        case 0xDC00...0xDFFF:
            throw error(.loneSurrogate(unit), at: backslash)
        default:
            break
        }
        appendUTF8(of: value)
        return end
    }

    /// The four hexadecimal digits at `offset` as a UTF-16 code unit, or `nil`.
    func hexQuad(at offset: Int) -> UInt16? {
        guard offset + 4 <= bytes.count else { return nil }
        var unit: UInt16 = 0
        for byte in bytes[offset..<offset + 4] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            unit = unit << 4 | UInt16(digit)
        }
        return unit
    }

    /// Appends the UTF-8 encoding of a Unicode scalar value (never a surrogate) to `scratch`.
    mutating func appendUTF8(of value: UInt32) {
        func byte(_ bits: UInt32) -> UInt8 { UInt8(truncatingIfNeeded: bits) }
        switch value {
        case ..<0x80:
            scratch.append(byte(value))
        case ..<0x800:
            scratch.append(byte(0xC0 | value >> 6))
            scratch.append(byte(0x80 | value & 0x3F))
        case ..<0x10000:
            scratch.append(byte(0xE0 | value >> 12))
            scratch.append(byte(0x80 | value >> 6 & 0x3F))
            scratch.append(byte(0x80 | value & 0x3F))
        default:
            scratch.append(byte(0xF0 | value >> 18))
            scratch.append(byte(0x80 | value >> 12 & 0x3F))
            scratch.append(byte(0x80 | value >> 6 & 0x3F))
            scratch.append(byte(0x80 | value & 0x3F))
        }
    }

    // MARK: UTF-8

    /// The length of the well-formed UTF-8 sequence at `offset`, or `nil` when it is ill-formed
    /// (stray continuation byte, overlong form, encoded surrogate, beyond U+10FFFF, or truncated).
    func utf8SequenceLength(at offset: Int) -> Int? {
        func continuation(_ at: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
            at < bytes.count && range.contains(bytes[at])
        }
        switch bytes[offset] {
        case 0x00...0x7F:
            return 1
        case 0xC2...0xDF:
            return continuation(offset + 1) ? 2 : nil
        case 0xE0:
            return continuation(offset + 1, 0xA0...0xBF) && continuation(offset + 2) ? 3 : nil
        case 0xE1...0xEC, 0xEE...0xEF:
            return continuation(offset + 1) && continuation(offset + 2) ? 3 : nil
        case 0xED:
            return continuation(offset + 1, 0x80...0x9F) && continuation(offset + 2) ? 3 : nil
        case 0xF0:
            return continuation(offset + 1, 0x90...0xBF) && continuation(offset + 2) && continuation(offset + 3) ? 4 : nil
        case 0xF1...0xF3:
            return continuation(offset + 1) && continuation(offset + 2) && continuation(offset + 3) ? 4 : nil
        case 0xF4:
            return continuation(offset + 1, 0x80...0x8F) && continuation(offset + 2) && continuation(offset + 3) ? 4 : nil
        default:
            return nil
        }
    }

    /// The Unicode scalar at `offset`, or `nil` when the bytes there are not well-formed UTF-8.
    func scalar(at offset: Int) -> Unicode.Scalar? {
        guard let length = utf8SequenceLength(at: offset) else { return nil }
        let lead = UInt32(bytes[offset])
        if length == 1 { return Unicode.Scalar(lead) }
        var value = lead & (0xFF >> (length + 1))
        for byte in bytes[offset + 1..<offset + length] {
            value = value << 6 | UInt32(byte & 0x3F)
        }
        return Unicode.Scalar(value)
    }

    // MARK: Locations and errors

    /// The location of `offset` on the current line, counting columns on from the last known one.
    mutating func location(of offset: Int) -> JSONLocation {
        guard offset >= knownColumnOffset else { return locate(offset) }
        var column = knownColumn
        for byte in bytes[knownColumnOffset..<offset] where byte & 0xC0 != 0x80 {
            column += 1
        }
        knownColumnOffset = offset
        knownColumn = column
        return JSONLocation(line: line, column: column)
    }

    /// The location of any offset, counted from the start of the document; used for errors only.
    func locate(_ offset: Int) -> JSONLocation {
        var line = 1
        var column = 1
        for byte in bytes[contentStart..<offset] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return JSONLocation(line: line, column: column)
    }

    func error(_ reason: JSONSyntaxError.Reason, at offset: Int) -> JSONSyntaxError {
        JSONSyntaxError(reason, at: locate(offset))
    }

    /// The error for finding something other than `expected` at `offset` (or the end of the input).
    func unexpected(_ expected: JSONSyntaxError.Expectation, at offset: Int) -> JSONSyntaxError {
        guard offset < bytes.count else { return error(.unexpectedEndOfInput(expected: expected), at: offset) }
        guard let scalar = scalar(at: offset) else { return error(.invalidUTF8(byte: bytes[offset]), at: offset) }
        return error(.unexpectedCharacter(scalar, expected: expected), at: offset)
    }

    /// The ASCII token between the offsets for an error message, shortened when long.
    func excerpt(from start: Int, to end: Int) -> String {
        let limit = 32
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<min(end, start + limit)]), as: UTF8.self)
        return end - start > limit ? text + "…" : text
    }
}

/// Why a document is not valid JSON, and where: `line 3, column 14: expected ',' or '}' after object member, found 'x'`.
package struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What the parser was looking for when it found something else.
    package enum Expectation: Sendable, Hashable {
        /// Any JSON value.
        case value
        /// A value or the `]` that closes the array just opened.
        case valueOrArrayEnd
        /// An object key, after a `,` in an object.
        case memberKey
        /// An object key or the `}` that closes the object just opened.
        case memberKeyOrObjectEnd
        /// The `:` between a key and its value.
        case colon
        /// A `,` or `]` after an array element.
        case commaOrArrayEnd
        /// A `,` or `}` after an object member.
        case commaOrObjectEnd
    }

    /// What is wrong with a number literal.
    package enum NumberProblem: Sendable, Hashable {
        /// `+1`: JSON numbers take no plus sign.
        case leadingPlus
        /// `.5`: a digit must come before the decimal point.
        case missingIntegerPart
        /// `-` or `-Infinity`: a digit must follow the minus sign.
        case missingDigitAfterMinus
        /// `01`: only `0` itself may start with `0`.
        case leadingZero
        /// `1.`: a digit must follow the decimal point.
        case missingFractionDigits
        /// `1e` or `1e+`: the exponent needs digits.
        case missingExponentDigits
        /// `1.5.3`, `0x1F`, `12px`: letters, digits or signs run on after a complete number.
        case unexpectedCharacters
    }

    /// The kind of problem, with the details a message needs.
    package enum Reason: Sendable, Hashable {
        /// The document has no value at all (nothing, or only whitespace).
        case emptyInput
        /// The bytes starting with `byte` are not well-formed UTF-8.
        case invalidUTF8(byte: UInt8)
        /// A character that cannot appear here.
        case unexpectedCharacter(Unicode.Scalar, expected: Expectation)
        /// The document ends while something is still expected.
        case unexpectedEndOfInput(expected: Expectation)
        /// A bare word other than `true`, `false` or `null` (`True`, `NaN`, `undefined`), shortened if long.
        case invalidLiteral(String)
        /// A malformed number; the text is the number-like token as written, shortened if long.
        case invalidNumber(String, NumberProblem)
        /// A string whose closing quote never comes; located at the opening quote.
        case unterminatedString
        /// A raw control character (U+0000 to U+001F) inside a string.
        case controlCharacterInString(UInt8)
        /// A backslash followed by a character that is not a JSON escape; located at the backslash.
        case invalidEscape(Unicode.Scalar)
        /// `\u` not followed by four hexadecimal digits; located at the backslash.
        case invalidUnicodeEscape
        /// A `\u` escape of a UTF-16 surrogate without its other half; located at the backslash.
        case loneSurrogate(UInt16)
        /// A `,` directly before the closing bracket; located at the comma.
        case trailingComma(before: Unicode.Scalar)
        /// Arrays and objects nested deeper than the limit; located at the bracket that goes too deep.
        case nestingTooDeep(limit: Int)
        /// Something other than whitespace after the document's single top-level value.
        case trailingContent(Unicode.Scalar)
    }

    /// What went wrong.
    package var reason: Reason
    /// Where it went wrong.
    package var location: JSONLocation

    /// Creates an error for `reason` at `location`.
    package init(_ reason: Reason, at location: JSONLocation) {
        self.reason = reason
        self.location = location
    }

    /// `line L, column C: ` followed by `message`.
    package var description: String {
        "line \(location.line), column \(location.column): \(message)"
    }

    /// The problem in words, without the location.
    package var message: String {
        switch reason {
        case .emptyInput:
            return "the document is empty; expected a JSON value such as an object '{...}'"
        case .invalidUTF8(let byte):
            return "invalid UTF-8 (byte \(hex(byte))); the file must be saved as UTF-8"
        case .unexpectedCharacter(let scalar, let expected):
            return "expected \(expected.phrase), found \(quoted(scalar))\(hint(for: scalar, expected: expected))"
        case .unexpectedEndOfInput(let expected):
            return "unexpected end of input; expected \(expected.phrase)"
        case .invalidLiteral(let word):
            if word == "NaN" || word == "Infinity" {
                return "'\(word)' is not allowed in JSON; numbers must be finite"
            }
            return "unknown word '\(word)'; expected a value (true, false and null are lowercase; strings need double quotes)"
        case .invalidNumber(let text, let problem):
            if text.hasSuffix("Infinity") || text.hasSuffix("NaN") {
                return "invalid number '\(text)'; NaN and Infinity are not allowed in JSON"
            }
            return "invalid number '\(text)': \(problem.phrase)"
        case .unterminatedString:
            return "string is not closed; expected '\"' before the end of input"
        case .controlCharacterInString(let byte):
            if byte == 0x0A || byte == 0x0D {
                return "line break inside a string; close the string with '\"' or write the line break as \(escape(for: byte))"
            }
            return "control character \(unicodeName(UInt32(byte))) inside a string; write it as \(escape(for: byte))"
        case .invalidEscape(let scalar):
            return "invalid escape '\\\(printable(scalar))' in string; valid escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX"
        case .invalidUnicodeEscape:
            return "invalid \\u escape; expected four hexadecimal digits after \\u"
        case .loneSurrogate(let unit):
            let escape = "\\u" + hexDigits(UInt32(unit), width: 4)
            return (0xD800...0xDBFF).contains(unit)
                ? "\(escape) is the first half of a UTF-16 surrogate pair; it must be followed by a \\uDC00-\\uDFFF escape"
                : "\(escape) is the second half of a UTF-16 surrogate pair; it must follow a \\uD800-\\uDBFF escape"
        case .trailingComma(let closer):
            return "trailing comma before '\(closer)'; remove the ','"
        case .nestingTooDeep(let limit):
            return "arrays and objects are nested more than \(limit) levels deep"
        case .trailingContent(let scalar):
            return "unexpected \(quoted(scalar)) after the end of the top-level value; a JSON document holds exactly one value"
        }
    }

    private func hint(for scalar: Unicode.Scalar, expected: Expectation) -> String {
        let expectsKey = expected == .memberKey || expected == .memberKeyOrObjectEnd
        switch scalar {
        case "/": return "; comments are not allowed in JSON"
        case "'": return "; strings need double quotes"
        case "=" where expected == .colon: return "; use ':' between a key and its value"
        case "a"..."z", "A"..."Z", "_", "$":
            return expectsKey ? "; object keys must be strings in double quotes" : ""
        default: return ""
        }
    }

    private func escape(for byte: UInt8) -> String {
        switch byte {
        case 0x08: "\\b"
        case 0x09: "\\t"
        case 0x0A: "\\n"
        case 0x0C: "\\f"
        case 0x0D: "\\r"
        default: "\\u" + hexDigits(UInt32(byte), width: 4)
        }
    }
}

extension JSONSyntaxError.Expectation {
    /// What was expected, as a phrase that follows "expected".
    var phrase: String {
        switch self {
        case .value: "a value"
        case .valueOrArrayEnd: "a value or ']'"
        case .memberKey: "a string key"
        case .memberKeyOrObjectEnd: "a string key or '}'"
        case .colon: "':' after object key"
        case .commaOrArrayEnd: "',' or ']' after array element"
        case .commaOrObjectEnd: "',' or '}' after object member"
        }
    }
}

extension JSONSyntaxError.NumberProblem {
    /// The problem as a phrase that follows "invalid number '...':".
    var phrase: String {
        switch self {
        case .leadingPlus: "a leading '+' is not allowed"
        case .missingIntegerPart: "a digit must come before '.' (write 0.5, not .5)"
        case .missingDigitAfterMinus: "expected a digit after '-'"
        case .leadingZero: "leading zeros are not allowed"
        case .missingFractionDigits: "expected a digit after '.'"
        case .missingExponentDigits: "expected a digit in the exponent"
        case .unexpectedCharacters: "only decimal digits, one '.', and one exponent are allowed"
        }
    }
}

/// `'x'` for visible characters, `U+000A` for invisible ones, `'é' (U+00E9)` beyond ASCII.
private func quoted(_ scalar: Unicode.Scalar) -> String {
    let code = scalar.value
    if code > 0x20 && code < 0x7F { return "'\(scalar)'" }
    return isVisible(scalar) ? "'\(scalar)' (\(unicodeName(code)))" : unicodeName(code)
}

/// The scalar itself when visible, otherwise its `U+XXXX` name.
private func printable(_ scalar: Unicode.Scalar) -> String {
    scalar.value > 0x20 && scalar.value < 0x7F || isVisible(scalar) ? String(scalar) : unicodeName(scalar.value)
}

private func isVisible(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator,
        .surrogate, .privateUse, .unassigned, .nonspacingMark, .enclosingMark:
        false
    default:
        scalar.value > 0x20
    }
}

private func unicodeName(_ code: UInt32) -> String {
    "U+" + hexDigits(code, width: 4)
}

private func hex(_ byte: UInt8) -> String {
    "0x" + hexDigits(UInt32(byte), width: 2)
}

private func hexDigits(_ value: UInt32, width: Int) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}
