import StartupKit

/// Where an object's members go as they are made: ``JSONObjectBuilder`` keeps them as ``JSONOutput`` values,
/// ``JSONObjectWriter`` writes their text at once. An object written through a sink is described once and comes out
/// the same both ways; the writer makes no value per member, for objects written by the thousand (a report's
/// commands). Keys are names that need no escape: the writer copies them as they are.
protocol JSONMemberSink {
    /// A string member.
    mutating func string(_ key: StaticString, _ value: String)
    /// A whole-number member.
    mutating func integer(_ key: StaticString, _ value: Int)
    /// A `true` or `false` member.
    mutating func bool(_ key: StaticString, _ value: Bool)
    /// A duration member in milliseconds (``JSONOutput/milliseconds(_:)``), or `null`.
    mutating func milliseconds(_ key: StaticString, _ value: Duration?)
    /// An array of command ids.
    mutating func ids(_ key: StaticString, _ ids: [CommandID])
    /// An object member whose members `body` adds.
    mutating func object(_ key: StaticString, _ body: (inout Self) -> Void)
    /// A member made elsewhere, whose key may need escapes.
    mutating func member(_ key: String, _ value: JSONOutput)
}

extension JSONMemberSink {
    /// A priority member: `"low"`, `"normal"` or `"high"` for those three, else the number, as a
    /// manifest writes it.
    mutating func priority(_ key: StaticString, _ value: CommandPriority) {
        if (-1...1).contains(value.value) {
            string(key, value.description)
        } else {
            integer(key, value.value)
        }
    }
}

/// Keeps the members as values, for ``JSONOutput/object(_:)``.
struct JSONObjectBuilder: JSONMemberSink {
    /// The members added so far, in order.
    private(set) var members: [(key: String, value: JSONOutput)] = []

    mutating func string(_ key: StaticString, _ value: String) { add(key, .string(value)) }
    mutating func integer(_ key: StaticString, _ value: Int) { add(key, .integer(value)) }
    mutating func bool(_ key: StaticString, _ value: Bool) { add(key, .bool(value)) }
    mutating func milliseconds(_ key: StaticString, _ value: Duration?) { add(key, value.map(JSONOutput.milliseconds) ?? .null) }
    mutating func ids(_ key: StaticString, _ ids: [CommandID]) { add(key, ReportExport.ids(ids)) }

    mutating func object(_ key: StaticString, _ body: (inout Self) -> Void) {
        var object = Self()
        body(&object)
        add(key, .object(object.members))
    }

    mutating func member(_ key: String, _ value: JSONOutput) {
        members.append((key, value))
    }

    private mutating func add(_ key: StaticString, _ value: JSONOutput) {
        members.append((key.description, value))
    }
}

/// Writes an object's text as ``JSONOutput/text(pretty:)`` writes it pretty, member by member.
struct JSONObjectWriter: JSONMemberSink {
    /// The text so far.
    private var output: [UInt8] = []
    /// The object's own level: its members are one deeper.
    private var indent: Int
    /// No member written yet.
    private var isEmpty = true

    private init(indent: Int) {
        self.indent = indent
    }

    /// Appends to `output` the object at level `indent` whose members `body` adds.
    static func write(to output: inout [UInt8], indent: Int, _ body: (inout Self) -> Void) {
        var writer = Self(indent: indent)
        // The writer holds the only reference while it writes: appending never copies the text.
        swap(&writer.output, &output)
        writer.output.append(UInt8(ascii: "{"))
        body(&writer)
        writer.finish()
        swap(&writer.output, &output)
    }

    mutating func string(_ key: StaticString, _ value: String) {
        writeKey(key)
        JSONOutput.writeString(value, to: &output)
    }

    mutating func integer(_ key: StaticString, _ value: Int) {
        writeKey(key)
        JSONOutput.writeInteger(value, to: &output)
    }

    mutating func bool(_ key: StaticString, _ value: Bool) {
        writeKey(key)
        JSONOutput.append(value ? "true" : "false", to: &output)
    }

    mutating func milliseconds(_ key: StaticString, _ value: Duration?) {
        writeKey(key)
        if let value { JSONOutput.writeMilliseconds(value, to: &output) } else { JSONOutput.append("null", to: &output) }
    }

    mutating func ids(_ key: StaticString, _ ids: [CommandID]) {
        writeKey(key)
        guard !ids.isEmpty else { return JSONOutput.append("[]", to: &output) }
        output.append(UInt8(ascii: "["))
        for (position, id) in ids.enumerated() {
            if position > 0 { output.append(UInt8(ascii: ",")) }
            JSONOutput.newLine(indent: indent + 2, to: &output)
            JSONOutput.writeString(id.rawValue, to: &output)
        }
        JSONOutput.newLine(indent: indent + 1, to: &output)
        output.append(UInt8(ascii: "]"))
    }

    mutating func object(_ key: StaticString, _ body: (inout Self) -> Void) {
        writeKey(key)
        output.append(UInt8(ascii: "{"))
        let (outerIndent, outerIsEmpty) = (indent, isEmpty)
        (indent, isEmpty) = (indent + 1, true)
        body(&self)
        finish()
        (indent, isEmpty) = (outerIndent, outerIsEmpty)
    }

    mutating func member(_ key: String, _ value: JSONOutput) {
        if !isEmpty { output.append(UInt8(ascii: ",")) }
        isEmpty = false
        JSONOutput.newLine(indent: indent + 1, to: &output)
        JSONOutput.writeString(key, to: &output)
        JSONOutput.append(": ", to: &output)
        value.write(to: &output, pretty: true, indent: indent + 1)
    }

    /// Closes the object: `}`, on its own line when the object has members.
    private mutating func finish() {
        if !isEmpty { JSONOutput.newLine(indent: indent, to: &output) }
        output.append(UInt8(ascii: "}"))
    }

    /// The comma before every member but the first, the line break and indent, the key (a name that needs no escape)
    /// and its colon.
    private mutating func writeKey(_ key: StaticString) {
        assert(key.withUTF8Buffer { !$0.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") } })
        if !isEmpty { output.append(UInt8(ascii: ",")) }
        isEmpty = false
        JSONOutput.newLine(indent: indent + 1, to: &output)
        output.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { output.append(contentsOf: $0) }
        JSONOutput.append("\": ", to: &output)
    }
}
