import StartupKit
import StartupSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process that listens on a TCP port, where the system says: on Linux, the listening sockets of
/// `/proc/net/tcp` and `/proc/net/tcp6` give the socket's inode, and `/proc/<pid>/fd` the process that holds it (only
/// processes whose descriptors `startup` may read: its user's). Elsewhere, never found. For the message of a port
/// that is already taken; it reads every process's descriptors, so it is for that error only.
struct PortHolder: Sendable, Hashable, CustomStringConvertible {
    /// The process's id.
    let pid: Int32
    /// Its command line, its arguments joined by spaces.
    let commandLine: String

    /// `pid 4242: python3 srv.py 18452`, the command line escaped and cut when long.
    var description: String {
        "pid \(pid): " + MessageQuoting.escaped(commandLine)
    }

    /// The process listening on `port` (any address), if the system says.
    static func find(port: Int) -> PortHolder? {
        #if os(Linux)
            let inodes = listeningInodes(port: port, in: "/proc/net/tcp").union(listeningInodes(port: port, in: "/proc/net/tcp6"))
            guard !inodes.isEmpty else { return nil }
            let targets = Set(inodes.map { "socket:[\($0)]" })
            guard let directory = opendir("/proc") else { return nil }
            defer { closedir(directory) }
            while let item = readdir(directory) {
                let name = withUnsafeBytes(of: item.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                guard let pid = Int32(name), pid != getpid(), holds(targets, pid: pid) else { continue }
                let commandLine = read("/proc/\(pid)/cmdline").map { bytes in
                    bytes.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ")
                }
                return PortHolder(pid: pid, commandLine: commandLine ?? "?")
            }
            return nil
        #else
            return nil
        #endif
    }

    #if os(Linux)
        /// The inodes of the sockets listening on `port` in a `/proc/net/tcp` table: lines of `sl local_address
        /// rem_address st ... inode`, the address as `HEX:HEXPORT`, state `0A` for listening.
        static func listeningInodes(port: Int, in table: String) -> Set<UInt64> {
            guard let text = read(table) else { return [] }
            return listeningInodes(port: port, table: String(decoding: text, as: UTF8.self))
        }

        /// The inodes of the sockets listening on `port` in the text of a `/proc/net/tcp` table.
        static func listeningInodes(port: Int, table: String) -> Set<UInt64> {
            var inodes: Set<UInt64> = []
            for line in table.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                guard fields.count > 9, fields[3] == "0A", let colon = fields[1].lastIndex(of: ":"),
                    Int(fields[1][fields[1].index(after: colon)...], radix: 16) == port, let inode = UInt64(fields[9]), inode != 0
                else { continue }
                inodes.insert(inode)
            }
            return inodes
        }

        /// Whether one of `pid`'s descriptors is one of `targets` (`socket:[inode]`).
        private static func holds(_ targets: Set<String>, pid: Int32) -> Bool {
            guard let directory = opendir("/proc/\(pid)/fd") else { return false }
            defer { closedir(directory) }
            var link = [CChar](repeating: 0, count: 64)
            while let item = readdir(directory) {
                let name = withUnsafeBytes(of: item.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                guard Int(name) != nil else { continue }
                let count = readlink("/proc/\(pid)/fd/\(name)", &link, link.count - 1)
                guard count > 0 else { continue }
                let target = link.prefix(count).withUnsafeBufferPointer { String(decoding: UnsafeRawBufferPointer($0), as: UTF8.self) }
                if targets.contains(target) { return true }
            }
            return false
        }

        /// The whole file (up to 4 MiB), or `nil` if it cannot be read.
        private static func read(_ path: String) -> [UInt8]? {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
            defer { _ = closeDescriptor(descriptor) }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while bytes.count < 4 << 20 {
                let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress!, $0.count) }
                if count > 0 {
                    bytes += chunk[..<count]
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    if count < 0 { return nil }
                    break
                }
            }
            return bytes
        }
    #endif
}
