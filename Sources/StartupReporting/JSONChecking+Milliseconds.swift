import StartupJSON
import StartupKit
import StartupSupport

extension JSONChecking {
    /// A duration in milliseconds, as this package's documents write them: a number from 0 to
    /// 365 days, read to the nanosecond.
    mutating func milliseconds(_ member: JSONMember, path: String) -> Duration? {
        guard case .number(let number) = member.value else {
            report(member.valueLocation, path, "expected milliseconds as a number, found \(member.value.kindName)")
            return nil
        }
        let value = number.doubleValue
        let maximum = Double(DurationText.maximum.components.seconds) * 1_000
        guard value.isFinite, value >= 0, value <= maximum else {
            report(
                member.valueLocation, path,
                "expected a number of milliseconds from 0 to \(Int64(maximum)) (365 days), found \(MessageQuoting.escaped(number.text))")
            return nil
        }
        return .nanoseconds(Self.exactNanoseconds(milliseconds: number.text) ?? Int64((value * 1_000_000).rounded()))
    }

    /// Plain decimal milliseconds (`12.345678`, as the report writes them) read exactly to the
    /// nanosecond, where a `Double` loses them past about 52 days; `nil` for other forms
    /// (exponents), which are read through a `Double`. The caller has checked the range.
    private static func exactNanoseconds(milliseconds text: String) -> Int64? {
        guard let first = text.utf8.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else { return nil }
        var whole: Int64 = 0
        var nanoseconds: Int64 = 0
        var fractionDigits = -1  // -1 before the decimal point
        for byte in text.utf8 {
            if byte == UInt8(ascii: "."), fractionDigits < 0 {
                fractionDigits = 0
                continue
            }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let digit = Int64(byte - UInt8(ascii: "0"))
            if fractionDigits < 0 {
                let (scaled, overflow) = whole.multipliedReportingOverflow(by: 10)
                guard !overflow else { return nil }
                whole = scaled + digit
            } else if fractionDigits < 6 {
                nanoseconds = nanoseconds * 10 + digit
                fractionDigits += 1
            }
        }
        for _ in max(fractionDigits, 0)..<6 { nanoseconds *= 10 }
        let (scaled, overflow) = whole.multipliedReportingOverflow(by: 1_000_000)
        return overflow ? nil : scaled.addingReportingOverflow(nanoseconds).partialValue
    }
}
