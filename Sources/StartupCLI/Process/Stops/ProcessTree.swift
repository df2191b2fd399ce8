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
///   carries the `STARTUP_PROCESS_TOKEN=<run>.<token>` this process was started with: nothing else tells whose they
///   were, and what an earlier attempt of the same command left (which may run on purpose) has another token. The
///   `<run>` part, the same for every process of this `startup`, is how ``RunGuardian`` finds them all when
///   `startup` itself is killed.
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

        /// Sends `signal` to the member `pid`, if it is still the process that was found: through its pidfd, else
        /// by pid once its start time is checked again.
        func send(_ signal: Int32, pid: pid_t) {
            if pidfd >= 0, let send = SpawnExtensions.pidfdSendSignal {
                _ = send(pidfd, signal)
            } else if ProcessTree.startTime(of: pid) == startTime {
                _ = kill(pid, signal)
            }
        }

        /// Whether `processes` (a snapshot taken after it was found) shows the member `pid` still running: present
        /// with the start time it was found with, and not a zombie.
        func isRunning(as pid: pid_t, in processes: ProcessSnapshot) -> Bool {
            guard let process = processes[pid] else { return false }
            return !process.isZombie && process.startTime == startTime
        }

        /// Closes its pidfd, if it has one.
        func close() {
            if pidfd >= 0 { _ = closeDescriptor(pidfd) }
        }
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
        return "\(runMarkerPrefix)\(token)"
    }

    /// The start of every marker this `startup` gives (`STARTUP_PROCESS_TOKEN=<run>.`): `<run>` is drawn at random
    /// once per process, so the markers of two runs never match.
    static let runMarkerPrefix = "\(ProcessSpec.processTokenVariable)=\(String(UInt64.random(in: 1 ... .max), radix: 36))."

    /// Adds what belongs to the command in `processes`; `excluded` are pids never to add (the engine's own
    /// children).
    ///
    /// A process is related through its parent only while that parent runs (a member found running in
    /// `processes`, or the leader until it is reaped): the number of one that has exited may already be another
    /// process's, and a live process whose parent had exited would have been reparented to `startup`. Groups and
    /// sessions of members that exited still count: their numbers are not reused while a process is in them. Walks
    /// out from what is known through the snapshot's indexes: costs the size of the tree, not of the snapshot.
    mutating func extend(from processes: ProcessSnapshot, excluding excluded: Dictionary<pid_t, UInt64>.Keys) {
        #if os(Linux)
            let ourPid = getpid()
            var known = Set(members.keys)
            known.insert(leader)
            // Each known pid, once, to look for what it leads (group, session) and, while it runs, its children.
            var pending = Array(known)
            var runs = Set(running(in: processes))
            if !leaderReaped { runs.insert(leader) }
            func add(_ process: ProcessSnapshot.Entry) {
                guard !known.contains(process.pid), process.pid != ourPid, !excluded.contains(process.pid),
                    let member = Self.member(process)
                else { return }
                known.insert(process.pid)
                if !process.isZombie { runs.insert(process.pid) }
                members[process.pid] = member
                pending.append(process.pid)
            }
            // Orphans `startup` adopted that carry this command's marker (a zombie's environment is gone).
            if let marker {
                for process in processes.adoptedChildren(markedWith: marker) where !excluded.contains(process.pid) {
                    add(process)
                }
            }
            while let pid = pending.popLast() {
                for process in processes.members(ofGroup: pid) { add(process) }
                for process in processes.members(ofSession: pid) { add(process) }
                if runs.contains(pid) {
                    for process in processes.children(of: pid) { add(process) }
                }
            }
        #endif
    }

    /// Sends `signal` to every member still alive; with `outsideGroup`, only to those found outside that process
    /// group, which the caller signals itself: each process gets one signal.
    func signal(_ signal: Int32, outsideGroup group: pid_t? = nil) {
        for (pid, member) in members where member.group != group {
            member.send(signal, pid: pid)
        }
    }

    /// The members still running in `processes` (a snapshot taken after they were found): present with the
    /// start time they were found with, and not a zombie.
    func running(in processes: ProcessSnapshot) -> [pid_t] {
        members.compactMap { pid, member in member.isRunning(as: pid, in: processes) ? pid : nil }
    }

    /// When `pid` started, or `nil` if it is gone.
    fileprivate static func startTime(of pid: pid_t) -> UInt64? {
        #if os(Linux)
            ProcFiles.startTime(of: pid)
        #else
            nil
        #endif
    }

    /// Closes the members' pidfds; the tree is not used afterwards.
    func close() {
        for member in members.values { member.close() }
    }

    #if os(Linux)
        /// `process` as a member: with a pidfd that is known to refer to it (not to a process that took its pid since the
        /// snapshot), or without one where pidfds are unavailable; `nil` if it is gone.
        static func member(_ process: ProcessSnapshot.Entry) -> Member? {
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
