import StartupJSON
import StartupKit
import StartupSupport

/// Two services may not probe one address: one could be reported ready by the other's listener. Checks the `tcp` and
/// `http` readiness probes of a manifest's commands, and words a shared address as a problem of the later command:
/// `commands[1] ("b").ready.tcp: "localhost:5432" is the address commands[0] ("a") probes ("127.0.0.1:5432"); ...`.
///
/// One address is one port on one host, whatever the probe (`tcp` or `http`, any path). This machine is one host
/// however it is written: `localhost` (and names under `.localhost`), any `127.x.x.x`, `::1`, `0.0.0.0`, `::` and
/// `::ffff:127.x.x.x`, since a server listening on all addresses answers each of them. Other hosts are the same
/// when their names are (case and a final dot aside), or their IP addresses are; no name is looked up.
enum ManifestProbeAddressCheck {
    /// Where a service's `tcp` or `http` probe is written, and what it probes.
    struct ProbeSource: Sendable {
        /// The command's path in messages: `commands[0] ("a")`.
        let commandPath: String
        /// `tcp` or `http`.
        let key: String
        /// The probe's text as written.
        let written: String
        /// The probe's host.
        let host: String
        /// The probe's port.
        let port: Int
        /// Where the probe's value is written.
        let location: JSONLocation
    }

    /// A problem for each probe whose address an earlier one probes, in manifest order.
    ///
    /// - Complexity: O(n) in the probes.
    static func problems(in probes: [ProbeSource]) -> [ManifestProblem] {
        var first: [String: ProbeSource] = [:]
        var problems: [ManifestProblem] = []
        for probe in probes {
            let key = addressKey(host: probe.host, port: probe.port)
            guard let earlier = first[key] else {
                first[key] = probe
                continue
            }
            problems.append(
                ManifestProblem(
                    line: probe.location.line, column: probe.location.column, path: "\(probe.commandPath).ready.\(probe.key)",
                    message: "\(MessageQuoting.quoted(probe.written)) is the address \(earlier.commandPath) probes "
                        + "(\(MessageQuoting.quoted(earlier.written))): two services may not probe one address, since one "
                        + "could be reported ready by the other's listener; give each service its own port"))
        }
        return problems
    }

    /// What two probes of one address share: `this-machine:5432`, `db.internal:5432`, an IPv6 address's bytes and
    /// the port.
    static func addressKey(host: String, port: Int) -> String {
        var name = host.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        if isThisMachine(name) { return "this-machine:\(port)" }
        if let bytes = ipv6Bytes(name) { return "[" + bytes.map { String($0, radix: 16) }.joined(separator: ".") + "]:\(port)" }
        return "\(name):\(port)"
    }

    /// Whether `name` (lowercased, without a final dot) is this machine.
    static func isThisMachine(_ name: String) -> Bool {
        if name == "localhost" || name.hasSuffix(".localhost") { return true }
        if let bytes = ipv4Bytes(name) { return bytes[0] == 127 || bytes == [0, 0, 0, 0] }
        guard let bytes = ipv6Bytes(name) else { return false }
        let loopback = [UInt8](repeating: 0, count: 15) + [1]
        let mappedIPv4 = [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF]
        return bytes == loopback || bytes.allSatisfy { $0 == 0 }
            || (Array(bytes.prefix(12)) == mappedIPv4 && (bytes[12] == 127 || bytes.suffix(4).allSatisfy { $0 == 0 }))
    }

    /// The four bytes of a dotted IPv4 address (`127.0.0.1`), or `nil`.
    static func ipv4Bytes(_ text: some StringProtocol) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        let bytes = parts.compactMap { part in part.count <= 3 && part.allSatisfy(\.isASCII) ? UInt8(part) : nil }
        return bytes.count == 4 ? bytes : nil
    }

    /// The sixteen bytes of an IPv6 address (`::1`, `2001:db8::1`, `::ffff:127.0.0.1`), or `nil`.
    static func ipv6Bytes(_ text: String) -> [UInt8]? {
        guard text.contains(":") else { return nil }
        let halves = text.split(separator: "::", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard halves.count <= 2, halves.allSatisfy({ !$0.contains("::") }) else { return nil }
        func groups(_ half: String) -> [UInt8]? {
            guard !half.isEmpty else { return [] }
            var bytes: [UInt8] = []
            let parts = half.split(separator: ":", omittingEmptySubsequences: false)
            for (index, part) in parts.enumerated() {
                if index == parts.count - 1, part.contains("."), let ipv4 = ipv4Bytes(part) {
                    bytes += ipv4
                } else {
                    guard (1...4).contains(part.count), let value = UInt16(part, radix: 16) else { return nil }
                    bytes += [UInt8(value >> 8), UInt8(value & 0xFF)]
                }
            }
            return bytes
        }
        guard let head = groups(halves[0]) else { return nil }
        if halves.count == 1 { return head.count == 16 ? head : nil }
        guard let tail = groups(halves[1]), head.count + tail.count <= 14 else { return nil }
        return head + [UInt8](repeating: 0, count: 16 - head.count - tail.count) + tail
    }
}
