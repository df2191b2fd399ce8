#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

#if os(Linux)
    /// What `/proc` tells of one process: its place (`stat`) and the marker in the environment it started with.
    enum ProcFiles {
        /// The process's line of `/proc/<pid>/stat`, or `nil` if it is gone.
        static func entry(of pid: pid_t) -> ProcessSnapshot.Entry? {
            guard let stat = read("/proc/\(pid)/stat", limit: 4096) else { return nil }
            // "pid (comm) state ppid pgrp session ...": comm may hold spaces and parentheses, so parse after the last ')'.
            guard let close = stat.lastIndex(of: UInt8(ascii: ")")) else { return nil }
            let fields = stat[(close + 1)...].split(separator: UInt8(ascii: " "))
            guard fields.count > 19, let parent = number(fields[1]), let group = number(fields[2]),
                let session = number(fields[3]), let startTime = number(fields[19], as: UInt64.self)
            else { return nil }
            let state = fields.first?.first
            return ProcessSnapshot.Entry(
                pid: pid, parent: parent, group: group, session: session, startTime: startTime,
                isZombie: state == UInt8(ascii: "Z") || state == UInt8(ascii: "X"))
        }

        /// When `pid` started (clock ticks after boot), or `nil` if it is gone.
        static func startTime(of pid: pid_t) -> UInt64? {
            entry(of: pid)?.startTime
        }

        /// The `STARTUP_PROCESS_TOKEN=<token>` entry of the environment `pid` started with, or `nil` when it has
        /// none or it cannot be read (gone, a zombie, another user's).
        static func processTokenEntry(of pid: pid_t) -> [UInt8]? {
            guard let environment = read("/proc/\(pid)/environ", limit: environmentLimit) else { return nil }
            let prefix = Array("\(ProcessSpec.processTokenVariable)=".utf8)
            return environment.split(separator: 0).first { $0.starts(with: prefix) }.map(Array.init)
        }

        /// The most of an environment read: more than `exec` accepts for a whole command line with its environment.
        private static let environmentLimit = 4 << 20

        /// A decimal field.
        private static func number<Number: FixedWidthInteger>(_ field: ArraySlice<UInt8>, as type: Number.Type = pid_t.self) -> Number? {
            Number(String(decoding: field, as: UTF8.self))
        }

        /// Up to `limit` bytes of a file, read a page at a time into a buffer on the stack (a small file costs one
        /// read and one copy), or `nil` if it cannot be read (the process is gone, or not ours).
        private static func read(_ path: String, limit: Int) -> [UInt8]? {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
            defer { _ = closeDescriptor(descriptor) }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4096) { page -> [UInt8]? in
                var bytes: [UInt8] = []
                while bytes.count < limit {
                    let count = Glibc.read(descriptor, page.baseAddress!, min(page.count, limit - bytes.count))
                    if count < 0 && errno == EINTR { continue }
                    if count < 0 { return nil }
                    if count == 0 { break }
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: page[..<count]))
                }
                return bytes
            }
        }
    }
#endif
