/// JSON to write: objects keep their keys in the order given, so output is stable for people and
/// diffs.
public indirect enum JSONOutput: Sendable, Equatable {
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
        var output = ""
        write(to: &output, pretty: pretty, indent: 0)
        return output
    }

    private func write(to output: inout String, pretty: Bool, indent: Int) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .integer(let value): output += String(value)
        case .number(let value): output += Self.format(value)
        case .milliseconds(let duration): output += Self.milliseconds(duration)
        case .string(let value): Self.writeString(value, to: &output)
        case .array(let elements):
            writeContainer(elements, open: "[", close: "]", to: &output, pretty: pretty, indent: indent) { element, output in
                element.write(to: &output, pretty: pretty, indent: indent + 1)
            }
        case .object(let members):
            writeContainer(members, open: "{", close: "}", to: &output, pretty: pretty, indent: indent) { member, output in
                Self.writeString(member.key, to: &output)
                output += pretty ? ": " : ":"
                member.value.write(to: &output, pretty: pretty, indent: indent + 1)
            }
        }
    }

    private func writeContainer<Element>(
        _ elements: [Element], open: String, close: String, to output: inout String, pretty: Bool, indent: Int,
        writeElement: (Element, inout String) -> Void
    ) {
        output += open
        guard !elements.isEmpty else {
            output += close
            return
        }
        let inner = pretty ? "\n" + String(repeating: "  ", count: indent + 1) : ""
        for (position, element) in elements.enumerated() {
            if position > 0 { output += "," }
            output += inner
            writeElement(element, &output)
        }
        output += pretty ? "\n" + String(repeating: "  ", count: indent) + close : close
    }

    /// Up to three decimals, without trailing zeros: `12.5`, `3`, `0.001`.
    private static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        let thousandths = (value * 1_000).rounded()
        guard abs(thousandths) < 9e15 else { return String(value) }
        let scaled = Int(thousandths)
        let sign = scaled < 0 ? "-" : ""
        var fraction = String(abs(scaled) % 1_000)
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return sign + String(abs(scaled) / 1_000) + (fraction.isEmpty ? "" : "." + fraction)
    }

    /// The duration in milliseconds with up to six decimals, from its whole nanoseconds; durations
    /// too long for that (beyond 290 years) are written through `Double`.
    private static func milliseconds(_ duration: Duration) -> String {
        if duration < .zero { return "-" + milliseconds(.zero - duration) }
        let (seconds, attoseconds) = duration.components
        let nanoseconds = attoseconds / 1_000_000_000
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000)
        let (whole, carry) = scaled.addingReportingOverflow(nanoseconds / 1_000_000)
        guard !overflow, !carry else { return format(duration.milliseconds) }
        var fraction = String(nanoseconds % 1_000_000)
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return String(whole) + (fraction.isEmpty ? "" : "." + fraction)
    }

    private static func writeString(_ value: String, to output: inout String) {
        output += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
