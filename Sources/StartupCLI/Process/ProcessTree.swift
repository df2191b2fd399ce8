#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The processes that go with a command `startup` stops, beyond its process group (which `kill(-pgid)` reaches).
///
/// Found in `/proc` (Linux) when the stop begins and again when it ends, and made of:
/// - the leader's descendants through parent links, so a child that called `setsid` is found while its parent
///   lives;
/// - every process in a session or process group led by a member, so what a `setsid` child started is found
///   even after that child exited;
/// - orphans `startup` adopted as the child subreaper (their parent died before the stop) whose environment still
///   carries the `STARTUP_PROCESS_TOKEN=<token>` this process was started with: nothing else tells whose they were,
///   and what an earlier attempt of the same command left (which may run on purpose) has another token.
/// Each member gets a pidfd, so a signal sent later can never reach a process that reused its pid, and is taken only
/// once the pidfd is known to be the process the snapshot saw (same start time): a pid reused between the snapshot
/// and `pidfd_open` is a stranger, left alone. Where pidfds are unavailable, the start time is checked again right
/// before each signal. Used on the engine's thread only. Elsewhere than Linux the tree is empty and only the process
/// group is signalled.
struct ProcessTree {
    /// The command's leader (our child, also its process-group id).
    let leader: pid_t
    /// The `NAME=value` entry that marks the command's adopted orphans, if the command has one.
    let marker: [UInt8]?
    /// Members found so far (never the leader).
    private(set) var members: [pid_t: Member] = [:]
    /// Whether the leader has been reaped (its pid may belong to another process by now).
    var leaderReaped = false

    /// A process that goes with the command.
    struct Member {
        /// Its pidfd, or -1 where pidfds are unavailable.
        let pidfd: Int32
        /// When it started (clock ticks after boot): with the pid, tells it apart from a process that reused the pid.
        let startTime: UInt64
        /// Its process group when it was found: the leader's, or one it moved to (`setsid`, `setpgid`).
        let group: pid_t
    }

    /// A tree with no members yet, for the leader started with `marker` (from `marker(forSpawn:of:)`) added to its
    /// environment.
    init(leader: pid_t, marker: String?) {
        self.leader = leader
        self.marker = marker.map { Array($0.utf8) }
    }

    /// The environment entry that marks what the process started for the spawn `token` leaves behind, for a
    /// manifest command's process (one with a command id); `nil` for others.
    static func marker(forSpawn token: UInt64, of spec: ProcessSpec) -> String? {
        guard spec.environment[ProcessSpec.commandIDVariable] != nil else { return nil }
        return "\(ProcessSpec.processTokenVariable)=\(token)"
    }

    /// One line of `/proc/<pid>/stat`: the fields that place a process.
    struct Entry {
        let pid: pid_t
        let parent: pid_t
        let group: pid_t
        let session: pid_t
        /// When the process started, in clock ticks after boot (field 22).
        let startTime: UInt64
        /// Whether it has exited and waits to be reaped (a zombie): gone, for a stop.
        var isZombie = false
    }

    /// Adds what belongs to the command in `processes` (a `snapshot()`); `excluded` are pids never to add (the
    /// engine's own children).
    ///
    /// A process is related through its parent only while that parent runs (a member found running in
    /// `processes`, or the leader until it is reaped): the number of one that has exited may already be another
    /// process's, and a live process whose parent had exited would have been reparented to `startup`. Groups and
    /// sessions of members that exited still count: their numbers are not reused while a process is in them.
    mutating func extend(from processes: [Entry], excluding excluded: Dictionary<pid_t, UInt64>.Keys) {
        #if os(Linux)
            let ourPid = getpid()
            var known = Set(members.keys)
            known.insert(leader)
            var parents = Set(running(in: processes))
            if !leaderReaped { parents.insert(leader) }
            var added = true
            while added {
                added = false
                for process in processes where !known.contains(process.pid) {
                    guard process.pid != ourPid, !excluded.contains(process.pid) else { continue }
                    let related =
                        parents.contains(process.parent) || known.contains(process.group)
                        || known.contains(process.session)
                    guard related || (process.parent == ourPid && isMarked(process.pid)),
                        let member = Self.member(process)
                    else { continue }
                    known.insert(process.pid)
                    if !process.isZombie { parents.insert(process.pid) }
                    members[process.pid] = member
                    added = true
                }
            }
        #endif
    }

    /// Sends `signal` to every member still alive; with `outsideGroup`, only to those found outside that process
    /// group, which the caller signals itself: each process gets one signal.
    func signal(_ signal: Int32, outsideGroup group: pid_t? = nil) {
        for (pid, member) in members where member.group != group {
            if member.pidfd >= 0, let send = SpawnExtensions.pidfdSendSignal {
                _ = send(member.pidfd, signal)
            } else if Self.startTime(of: pid) == member.startTime {
                _ = kill(pid, signal)
            }
        }
    }

    /// The members still running in `processes` (a `snapshot()` taken after they were found): present with the
    /// start time they were found with, and not a zombie.
    func running(in processes: [Entry]) -> [pid_t] {
        processes.filter { process in
            !process.isZombie && members[process.pid].map { $0.startTime == process.startTime } ?? false
        }.map(\.pid)
    }

    /// When `pid` started, or `nil` if it is gone.
    private static func startTime(of pid: pid_t) -> UInt64? {
        #if os(Linux)
            entry(of: pid)?.startTime
        #else
            nil
        #endif
    }

    /// Closes the members' pidfds; the tree is not used afterwards.
    func close() {
        for member in members.values where member.pidfd >= 0 {
            _ = closeDescriptor(member.pidfd)
        }
    }

    /// Every process visible in `/proc` (none elsewhere than Linux). Costs a read of each process's `stat`.
    static func snapshot() -> [Entry] {
        #if os(Linux)
            guard let directory = opendir("/proc") else { return [] }
            defer { closedir(directory) }
            var entries: [Entry] = []
            while let item = readdir(directory) {
                let name = withUnsafeBytes(of: item.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                guard let pid = pid_t(name), let entry = entry(of: pid) else { continue }
                entries.append(entry)
            }
            return entries
        #else
            return []
        #endif
    }

    #if os(Linux)
        /// The process's line of `/proc/<pid>/stat`, or `nil` if it is gone.
        private static func entry(of pid: pid_t) -> Entry? {
            guard let stat = readSmallFile("/proc/\(pid)/stat") else { return nil }
            // "pid (comm) state ppid pgrp session ...": comm may hold spaces and parentheses, so parse after the last ')'.
            guard let close = stat.lastIndex(of: UInt8(ascii: ")")) else { return nil }
            let fields = stat[(close + 1)...].split(separator: UInt8(ascii: " "))
            guard fields.count > 19, let parent = number(fields[1]), let group = number(fields[2]),
                let session = number(fields[3]), let startTime = number(fields[19], as: UInt64.self)
            else { return nil }
            let state = fields.first?.first
            return Entry(
                pid: pid, parent: parent, group: group, session: session, startTime: startTime,
                isZombie: state == UInt8(ascii: "Z") || state == UInt8(ascii: "X"))
        }

        /// `process` as a member: with a pidfd that is known to refer to it (not to a process that took its pid since the
        /// snapshot), or without one where pidfds are unavailable; `nil` if it is gone.
        private static func member(_ process: Entry) -> Member? {
            var pidfd: Int32 = -1
            if let pidfdOpen = SpawnExtensions.pidfdOpen {
                pidfd = pidfdOpen(process.pid, 0)
                if pidfd < 0 && errno == ESRCH { return nil }
            }
            guard startTime(of: process.pid) == process.startTime else {
                if pidfd >= 0 { _ = closeDescriptor(pidfd) }
                return nil
            }
            return Member(pidfd: pidfd, startTime: process.startTime, group: process.group)
        }

        /// Whether the environment `pid` started with holds `marker`.
        private func isMarked(_ pid: pid_t) -> Bool {
            guard let marker, let environment = Self.readSmallFile("/proc/\(pid)/environ", limit: 1 << 20) else { return false }
            return environment.split(separator: 0).contains { $0.elementsEqual(marker) }
        }

        /// A decimal field.
        private static func number<Number: FixedWidthInteger>(_ field: ArraySlice<UInt8>, as type: Number.Type = pid_t.self) -> Number? {
            Number(String(decoding: field, as: UTF8.self))
        }

        /// Up to `limit` bytes of a file, or `nil` if it cannot be read (the process is gone, or not ours).
        private static func readSmallFile(_ path: String, limit: Int = 4096) -> [UInt8]? {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
            defer { _ = closeDescriptor(descriptor) }
            var bytes = [UInt8](repeating: 0, count: limit)
            var filled = 0
            while filled < limit {
                let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, limit - filled) }
                if count > 0 {
                    filled += count
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    if count < 0 { return nil }
                    break
                }
            }
            return Array(bytes[..<filled])
        }
    #endif
}

/// `close(2)`, named apart from `ProcessTree.close()`.
func closeDescriptor(_ descriptor: Int32) -> Int32 {
    #if canImport(Glibc)
        Glibc.close(descriptor)
    #else
        Darwin.close(descriptor)
    #endif
}
