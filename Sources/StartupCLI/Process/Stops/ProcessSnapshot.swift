#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The processes visible in `/proc` at one moment (none elsewhere than Linux), indexed so that finding what goes
/// with one stopped command costs the size of its tree, not the number of processes: a stop of hundreds of commands
/// takes one snapshot and looks up each tree in it.
///
/// Reading the environments of `startup`'s children (to tell whose an adopted orphan was, see ``ProcessTree``) is
/// done at most once per process and snapshot, whatever the number of trees that ask. Used on one thread only (the
/// memo of those environments is not shared).
struct ProcessSnapshot {
    /// One line of `/proc/<pid>/stat`: the fields that place a process.
    struct Entry: Equatable {
        let pid: pid_t
        let parent: pid_t
        let group: pid_t
        let session: pid_t
        /// When the process started, in clock ticks after boot (field 22).
        let startTime: UInt64
        /// Whether it has exited and waits to be reaped (a zombie): gone, for a stop.
        var isZombie = false
    }

    /// Every process, in the order `/proc` listed them.
    let entries: [Entry]
    /// Each process by pid.
    private let byPid: [pid_t: Entry]
    /// The processes whose parent is the key.
    private let byParent: [pid_t: [Entry]]
    /// The processes in the process group the key leads (or led).
    private let byGroup: [pid_t: [Entry]]
    /// The processes in the session the key leads (or led).
    private let bySession: [pid_t: [Entry]]
    /// The `STARTUP_PROCESS_TOKEN` entries of the processes whose environment was read, by pid.
    private let environmentMarkers = EnvironmentMarkers()

    /// A snapshot made of `entries` (the tests' made-up processes, or what `/proc` showed).
    init(_ entries: [Entry]) {
        self.entries = entries
        var byPid: [pid_t: Entry] = [:]
        var byParent: [pid_t: [Entry]] = [:]
        var byGroup: [pid_t: [Entry]] = [:]
        var bySession: [pid_t: [Entry]] = [:]
        byPid.reserveCapacity(entries.count)
        for entry in entries {
            byPid[entry.pid] = entry
            byParent[entry.parent, default: []].append(entry)
            byGroup[entry.group, default: []].append(entry)
            bySession[entry.session, default: []].append(entry)
        }
        self.byPid = byPid
        self.byParent = byParent
        self.byGroup = byGroup
        self.bySession = bySession
    }

    /// The process `pid`, if the snapshot shows it.
    subscript(pid: pid_t) -> Entry? { byPid[pid] }

    /// The processes whose parent is `pid`.
    func children(of pid: pid_t) -> [Entry] { byParent[pid] ?? [] }

    /// The processes in the process group `group`.
    func members(ofGroup group: pid_t) -> [Entry] { byGroup[group] ?? [] }

    /// The processes in the session `session`.
    func members(ofSession session: pid_t) -> [Entry] { bySession[session] ?? [] }

    /// The live processes whose parent is `startup` (orphans it adopted, and its own children) that started with
    /// the environment entry `marker` (`NAME=value`). The first call reads the environment of each such process
    /// once; later calls, for other trees, look the marker up.
    func adoptedChildren(markedWith marker: [UInt8]) -> [Entry] {
        environmentMarkers.children(markedWith: marker) {
            children(of: getpid()).filter { !$0.isZombie }
        }
    }

    /// Every process visible in `/proc` (none elsewhere than Linux). Costs a read of each process's `stat`.
    static func current() -> ProcessSnapshot {
        #if os(Linux)
            guard let directory = opendir("/proc") else { return ProcessSnapshot([]) }
            defer { closedir(directory) }
            var entries: [Entry] = []
            while let item = readdir(directory) {
                let name = withUnsafeBytes(of: item.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                guard let pid = pid_t(name), let entry = ProcFiles.entry(of: pid) else { continue }
                entries.append(entry)
            }
            return ProcessSnapshot(entries)
        #else
            return ProcessSnapshot([])
        #endif
    }
}

extension ProcessSnapshot: ExpressibleByArrayLiteral {
    /// A snapshot of made-up processes.
    init(arrayLiteral entries: Entry...) {
        self.init(entries)
    }
}

/// The live children of `startup` by the `STARTUP_PROCESS_TOKEN=<run>.<token>` entry of their environment, read
/// once per snapshot at the first question. A reference, so the value snapshot that holds it stays cheap to pass;
/// engine's thread only.
private final class EnvironmentMarkers {
    /// The children by marker, once read.
    private var childrenByMarker: [[UInt8]: [ProcessSnapshot.Entry]]? = nil

    /// The children whose marker is `marker`, among `children()` (asked for on the first call only).
    func children(markedWith marker: [UInt8], among children: () -> [ProcessSnapshot.Entry]) -> [ProcessSnapshot.Entry] {
        if let childrenByMarker { return childrenByMarker[marker] ?? [] }
        var byMarker: [[UInt8]: [ProcessSnapshot.Entry]] = [:]
        #if os(Linux)
            for child in children() {
                if let found = ProcFiles.processTokenEntry(of: child.pid) { byMarker[found, default: []].append(child) }
            }
        #endif
        childrenByMarker = byMarker
        return byMarker[marker] ?? []
    }
}
