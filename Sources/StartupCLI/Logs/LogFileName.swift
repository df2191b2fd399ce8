import StartupKit

/// Where a command's log goes in the `--log-dir` folder: `ID.log`, the id escaped where it would not make a safe file
/// name, reversibly.
///
/// - `%`, `/`, NUL, the other control characters (U+0001 to U+001F) and DEL are written `%XX` (the byte in two
///   upper-case hex digits): `db/main` is `db%2Fmain.log`, `50%` is `50%25.log`.
/// - A `.` that would start a name is written `%2E`, so no log is hidden and none is `.` or `..`: `.env` is
///   `%2Eenv.log`.
/// - Everything else is kept as it is, letters outside ASCII too (in UTF-8).
/// - A name is at most ``componentLimit`` bytes before its `.log`, within every file system's 255. A longer escaped
///   id is cut, between characters, into folders of at most that many bytes, each name followed by `%`:
///   `DIR/<first 240 bytes>%/<rest>.log`. No escaped id holds a `/`, so the slashes in a log's path are only these
///   cuts, and a folder's name, ending in `%`, is never a log's, ending in `.log`.
///
/// Reversing it: drop `.log`, drop each `%/` (a cut), and replace each `%XX` with its byte (``id(atPath:)``). Two
/// ids never share a log.
enum LogFileName {
    /// The most bytes of an escaped id in one name, before its `.log` (or a folder's `%`).
    static let componentLimit = 240

    /// The path of `id`'s log, relative to the log folder.
    static func path(for id: CommandID) -> String {
        var components: [[UInt8]] = []
        var current: [UInt8] = []
        for scalar in id.rawValue.unicodeScalars {
            var unit = encoded(scalar, startsName: current.isEmpty)
            if current.count + unit.count > componentLimit {
                components.append(current + [percent])
                current = []
                unit = encoded(scalar, startsName: true)
            }
            current += unit
        }
        components.append(current + Array(".log".utf8))
        return String(decoding: Array(components.joined(separator: [slash])), as: UTF8.self)
    }

    /// The id whose log is at `path` (relative to the log folder), or `nil` when no id's log is there.
    static func id(atPath relativePath: String) -> CommandID? {
        guard relativePath.hasSuffix(".log") else { return nil }
        var components = relativePath.dropLast(4).split(separator: "/", omittingEmptySubsequences: false).map { Array($0.utf8) }
        for index in components.indices.dropLast() {
            guard components[index].last == percent else { return nil }
            components[index].removeLast()
        }
        let escaped = Array(components.joined())
        var bytes: [UInt8] = []
        var index = escaped.startIndex
        while index < escaped.endIndex {
            if escaped[index] == percent {
                guard index + 2 < escaped.endIndex, let high = hexValue(escaped[index + 1]), let low = hexValue(escaped[index + 2])
                else { return nil }
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(escaped[index])
                index += 1
            }
        }
        let id = CommandID(String(decoding: bytes, as: UTF8.self))
        return path(for: id) == relativePath ? id : nil
    }

    /// The bytes `scalar` is written as; `startsName` when it would be the first of a name.
    private static func encoded(_ scalar: Unicode.Scalar, startsName: Bool) -> [UInt8] {
        let value = scalar.value
        if value < 0x20 || value == 0x7F || scalar == "/" || scalar == "%" || (scalar == "." && startsName) {
            let digits = Array("0123456789ABCDEF".utf8)
            return [percent, digits[Int(value >> 4)], digits[Int(value & 0xF)]]
        }
        return Array(String(scalar).utf8)
    }

    /// The value of an upper-case hex digit.
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static let percent = UInt8(ascii: "%")
    private static let slash = UInt8(ascii: "/")
}
