/// JSON to write: objects keep their keys in the order given, so output is stable for people and
/// diffs.
///
/// Complete: JSON's kinds of value, and milliseconds written as this package's documents write
/// them. No case will be added before a major version, so a `switch` over it may list every case
/// without a `default`.
public enum JSONOutput: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A whole number.
    case integer(Int)
    /// A number, written with up to three decimals (`12.345`); non-finite values are written `null`.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONOutput])
    /// An object, keys in this order.
    case object([(key: String, value: JSONOutput)])
    /// A duration in milliseconds, as every machine-readable time of this package is: written
    /// exactly, to the nanosecond (`12.5`, `0.000042`), so a saved report reads back unchanged.
    case milliseconds(Duration)

    /// Two values are equal when they would be written the same.
    public static func == (lhs: JSONOutput, rhs: JSONOutput) -> Bool {
        lhs.text() == rhs.text()
    }

    /// The JSON text: compact on one line, or indented by two spaces per level.
    public func text(pretty: Bool = false) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(4_096)
        write(to: &output, pretty: pretty, indent: 0)
        return String(decoding: output, as: UTF8.self)
    }

    /// The same text as ``text(pretty:)``, written by up to `parts` tasks side by side when this is
    /// an object with a long array among its members (a report of a thousand commands): each task
    /// writes a run of that array's elements.
    public func text(pretty: Bool = false, parts: Int) async -> String {
        guard parts > 1, case .object(let members) = self,
            let longest = members.indices.max(by: { members[$0].value.arrayCount < members[$1].value.arrayCount }),
            case .array(let elements) = members[longest].value
        else { return text(pretty: pretty) }
        return await Self.text(
            object: members, arrayAt: longest, count: elements.count,
            writeElement: { index, output in elements[index].write(to: &output, pretty: pretty, indent: 2) }, pretty: pretty, parts: parts)
    }

    /// The text of the object `members` whose member at `arrayIndex` is an array of `count` elements that
    /// `writeElement` writes one at a time, at level 2 and pretty when `pretty` (that member's own value is not
    /// read), followed by a line break when `lineBreakAtEnd`. Up to `parts` tasks write side by side, each a run
    /// of the array's elements, when the array is long enough. An array of thousands (a report's commands) is
    /// never held as one tree: each element is written in turn, on the task that writes it.
    static func text(
        object members: [(key: String, value: JSONOutput)], arrayAt arrayIndex: Int, count: Int,
        writeElement: @escaping @Sendable (_ index: Int, _ output: inout [UInt8]) -> Void, pretty: Bool, parts: Int,
        lineBreakAtEnd: Bool = false
    ) async -> String {
        let lineBreak = lineBreakAtEnd ? "\n" : ""
        guard count > 0 else {
            var members = members
            members[arrayIndex].value = .array([])
            return JSONOutput.object(members).text(pretty: pretty) + lineBreak
        }
        @Sendable func write(_ run: Range<Int>) -> [UInt8] {
            var output: [UInt8] = []
            for index in run {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                if pretty { newLine(indent: 2, to: &output) }
                writeElement(index, &output)
                // The first element's size times the run's length: the buffer is not grown (and copied) again.
                if index == run.lowerBound { output.reserveCapacity(output.count * (run.count + 1)) }
            }
            return output
        }
        let runs = Self.runs(of: 0..<count, parts: max(1, min(parts, count / Self.elementsPerPart)))
        let written: [[UInt8]]
        if runs.count == 1 {
            written = [write(runs[0])]
        } else {
            written = await withTaskGroup(of: (Int, [UInt8]).self) { group in
                for (number, run) in runs.enumerated() {
                    group.addTask { (number, write(run)) }
                }
                var written = [[UInt8]](repeating: [], count: runs.count)
                for await (number, output) in group { written[number] = output }
                return written
            }
        }
        var head: [UInt8] = [UInt8(ascii: "{")]
        Self.writeMembers(members, ..<arrayIndex, to: &head, pretty: pretty, indent: 0)
        Self.writeMemberKey(members[arrayIndex].key, first: arrayIndex == 0, to: &head, pretty: pretty, indent: 0)
        head.append(UInt8(ascii: "["))
        var tail: [UInt8] = []
        if pretty { Self.newLine(indent: 1, to: &tail) }
        tail.append(UInt8(ascii: "]"))
        Self.writeMembers(members, (arrayIndex + 1)..., to: &tail, pretty: pretty, indent: 0)
        if pretty { Self.newLine(indent: 0, to: &tail) }
        tail.append(UInt8(ascii: "}"))
        tail += lineBreak.utf8
        // Copied once, straight into the string.
        let pieces = [head] + written + [tail]
        return String(unsafeUninitializedCapacity: pieces.reduce(0) { $0 + $1.count }) { text in
            var count = 0
            for piece in pieces {
                _ = UnsafeMutableBufferPointer(rebasing: text[count...]).initialize(from: piece)
                count += piece.count
            }
            return count
        }
    }

    /// Fewest elements a task of ``text(pretty:parts:)`` writes: fewer are not worth a task.
    private static let elementsPerPart = 128

    /// `indices` cut into `parts` runs of nearly equal length, in order.
    private static func runs(of indices: Range<Int>, parts: Int) -> [Range<Int>] {
        (0..<parts).map { part in
            (indices.lowerBound + indices.count * part / parts)..<(indices.lowerBound + indices.count * (part + 1) / parts)
        }
    }

    /// The number of elements of an array; 0 for anything else.
    private var arrayCount: Int {
        if case .array(let elements) = self { elements.count } else { 0 }
    }

    func write(to output: inout [UInt8], pretty: Bool, indent: Int) {
        switch self {
        case .null: Self.append("null", to: &output)
        case .bool(let value): Self.append(value ? "true" : "false", to: &output)
        case .integer(let value): Self.writeInteger(value, to: &output)
        case .number(let value): output += Self.format(value).utf8
        case .milliseconds(let duration): Self.writeMilliseconds(duration, to: &output)
        case .string(let value): Self.writeString(value, to: &output)
        case .array(let elements):
            guard !elements.isEmpty else { return Self.append("[]", to: &output) }
            output.append(UInt8(ascii: "["))
            Self.writeElements(elements, elements.indices, to: &output, pretty: pretty, indent: indent + 1)
            if pretty { Self.newLine(indent: indent, to: &output) }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            guard !members.isEmpty else { return Self.append("{}", to: &output) }
            output.append(UInt8(ascii: "{"))
            Self.writeMembers(members, members.indices, to: &output, pretty: pretty, indent: indent)
            if pretty { Self.newLine(indent: indent, to: &output) }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// The array elements at `indices`, each on its own line at `indent` when pretty, a comma before each but
    /// the array's first.
    private static func writeElements(
        _ elements: [JSONOutput], _ indices: Range<Int>, to output: inout [UInt8], pretty: Bool, indent: Int
    ) {
        for index in indices {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            if pretty { newLine(indent: indent, to: &output) }
            elements[index].write(to: &output, pretty: pretty, indent: indent)
        }
    }

    /// The members at `indices` of an object written at `indent`.
    private static func writeMembers(
        _ members: [(key: String, value: JSONOutput)], _ indices: some RangeExpression<Int>, to output: inout [UInt8], pretty: Bool,
        indent: Int
    ) {
        for index in members.indices[indices] {
            writeMemberKey(members[index].key, first: index == 0, to: &output, pretty: pretty, indent: indent)
            members[index].value.write(to: &output, pretty: pretty, indent: indent + 1)
        }
    }

    /// A member's key and colon, after a comma unless it is the object's first, on its own line when pretty.
    private static func writeMemberKey(_ key: String, first: Bool, to output: inout [UInt8], pretty: Bool, indent: Int) {
        if !first { output.append(UInt8(ascii: ",")) }
        if pretty { newLine(indent: indent + 1, to: &output) }
        writeString(key, to: &output)
        output.append(UInt8(ascii: ":"))
        if pretty { output.append(UInt8(ascii: " ")) }
    }

    /// Appends a literal. Constant text is a `StaticString`, never an array: an array shared by the
    /// tasks of ``text(pretty:parts:)`` would be retained and released by each of them for every
    /// value, and those counts, on one cache line, made two tasks slower than one.
    static func append(_ text: StaticString, to output: inout [UInt8]) {
        text.withUTF8Buffer { output.append(contentsOf: $0) }
    }

    /// A line break and the spaces of 32 levels, cut to the level needed.
    private static let lineBreakAndSpaces: StaticString = "\n                                                                "

    /// A line break and two spaces per level.
    static func newLine(indent: Int, to output: inout [UInt8]) {
        let spaces = 2 * indent
        lineBreakAndSpaces.withUTF8Buffer { text in
            output.append(contentsOf: UnsafeBufferPointer(rebasing: text[...min(spaces, text.count - 1)]))
            if spaces >= text.count {
                output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: spaces - text.count + 1))
            }
        }
    }

    /// The decimal digits of `value`, without making a string.
    static func writeInteger(_ value: Int, to output: inout [UInt8]) {
        if value < 0 {
            output.append(UInt8(ascii: "-"))
            // The magnitude of Int.min does not fit in Int; it does in UInt.
            return writeDigits(UInt64(value.magnitude), to: &output)
        }
        writeDigits(UInt64(value), to: &output)
    }

    /// The decimal digits of `value`, most significant first.
    private static func writeDigits(_ value: UInt64, to output: inout [UInt8]) {
        writeDigits(value, millionths: 0, to: &output)
    }

    /// The decimal digits of `whole`, then, unless `millionths` (below 1,000,000) is 0, a point and its six
    /// digits without trailing zeros: made on the stack and appended at once. 64 bits on every platform, so
    /// no value a report holds traps where `Int` is 32 bits (watchOS's arm64_32).
    private static func writeDigits(_ whole: UInt64, millionths: UInt64, to output: inout [UInt8]) {
        assert(millionths < 1_000_000)
        func digit(_ value: UInt64) -> UInt8 { UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value) }
        // A UInt64's 20 digits end where the point goes; the point and 6 decimals follow.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 27) { buffer in
            var start = 20
            var rest = whole
            repeat {
                start -= 1
                buffer[start] = digit(rest % 10)
                rest /= 10
            } while rest > 0
            var end = 20
            if millionths > 0 {
                buffer[end] = UInt8(ascii: ".")
                end += 1
                var fraction = millionths
                var divisor: UInt64 = 100_000
                while fraction > 0 {
                    buffer[end] = digit(fraction / divisor)
                    end += 1
                    fraction %= divisor
                    divisor /= 10
                }
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<end]))
        }
    }

    /// Up to three decimals, without trailing zeros: `12.5`, `3`, `0.001`.
    private static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        let thousandths = (value * 1_000).rounded()
        guard abs(thousandths) < 9e15 else { return String(value) }
        let scaled = Int64(thousandths)
        let sign = scaled < 0 ? "-" : ""
        var fraction = String(abs(scaled) % 1_000)
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return sign + String(abs(scaled) / 1_000) + (fraction.isEmpty ? "" : "." + fraction)
    }

    /// The duration in milliseconds with up to six decimals, from its whole nanoseconds; durations
    /// too long for that (beyond about 292 million years) are written through `Double`.
    static func writeMilliseconds(_ duration: Duration, to output: inout [UInt8]) {
        if duration < .zero {
            output.append(UInt8(ascii: "-"))
            return writeMilliseconds(.zero - duration, to: &output)
        }
        let (seconds, attoseconds) = duration.components
        let nanoseconds = attoseconds / 1_000_000_000
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000)
        let (whole, carry) = scaled.addingReportingOverflow(nanoseconds / 1_000_000)
        guard !overflow, !carry else {
            output += format(duration.fractionalMilliseconds).utf8
            return
        }
        writeDigits(UInt64(whole), millionths: UInt64(nanoseconds % 1_000_000), to: &output)
    }

    /// The string in quotes, escaped: quotes, backslashes, control characters, and U+2028 and
    /// U+2029 (which end a line in JavaScript).
    static func writeString(_ value: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        // Most strings (keys, ids, statuses) need no escape: copied in one go from their contiguous bytes.
        let copied = value.utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0xE2 {
                return false
            }
            output.append(contentsOf: bytes)
            return true
        }
        if copied == true {
            output.append(UInt8(ascii: "\""))
            return
        }
        var utf8 = value.utf8.makeIterator()
        // The two bytes before the current one: U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
        var previous: (UInt8, UInt8) = (0, 0)
        while let byte = utf8.next() {
            switch byte {
            case UInt8(ascii: "\""): output += #"\""#.utf8
            case UInt8(ascii: "\\"): output += #"\\"#.utf8
            case UInt8(ascii: "\n"): output += #"\n"#.utf8
            case UInt8(ascii: "\r"): output += #"\r"#.utf8
            case UInt8(ascii: "\t"): output += #"\t"#.utf8
            case 0..<0x20: output += #"\u00"#.utf8 + [hexDigit(byte >> 4), hexDigit(byte & 0xF)]
            case 0xA8...0xA9 where previous == (0xE2, 0x80):
                output.removeLast(2)
                output += (byte == 0xA8 ? #"\u2028"# : #"\u2029"#).utf8
            default: output.append(byte)
            }
            previous = (previous.1, byte)
        }
        output.append(UInt8(ascii: "\""))
    }

    /// The lowercase hexadecimal digit of `value` (0 to 15).
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
