#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

#if os(Linux)
    /// What a run that was killed outright left running, as its guardian finds it (see ``RunGuardian``): every process
    /// whose environment carries the run's marker (but for the commands that ended by themselves, whose leftovers run on
    /// purpose), with the trees they head (descendants, and the groups and sessions
    /// they lead, found as ``ProcessTree`` finds them). Each process is held by a pidfd, so a signal never reaches a
    /// process that reused its pid, and gets each signal once.
    struct LeftBehind {
        /// The start of the run's markers (`STARTUP_PROCESS_TOKEN=<run>.`).
        let markerPrefix: [UInt8]
        /// The spawn tokens of the commands that ended by themselves: what carries their marker is left alone.
        let spared: Set<UInt64>
        /// The processes found so far, and whether each got the signal `find` sends.
        private var found: [pid_t: (member: ProcessTree.Member, signalled: Bool)] = [:]

        /// Nothing found yet, for the run whose markers start with `markerPrefix`, sparing the commands `spared`.
        init(markerPrefix: [UInt8], sparing spared: Set<UInt64>) {
            self.markerPrefix = markerPrefix
            self.spared = spared
        }

        /// Whether nothing was found.
        var isEmpty: Bool { found.isEmpty }

        /// How many processes were found.
        var count: Int { found.count }

        /// Adds what `processes` shows of the run, and sends `signal` to each process found that has not had it.
        mutating func find(in processes: ProcessSnapshot, signalling signal: Int32) {
            let own = getpid()
            let none = [pid_t: UInt64]().keys
            for process in processes.entries where found[process.pid] == nil && process.pid != own && !process.isZombie {
                guard isMarkedAndNotSpared(process.pid), let head = ProcessTree.member(process) else { continue }
                found[process.pid] = (head, false)
                var tree = ProcessTree(leader: process.pid, marker: nil)
                tree.extend(from: processes, excluding: none)
                for (pid, member) in tree.members where pid != own {
                    if found[pid] == nil { found[pid] = (member, false) } else { member.close() }
                }
            }
            for (pid, entry) in found where !entry.signalled {
                entry.member.send(signal, pid: pid)
                found[pid]?.signalled = true
            }
        }

        /// Whether the environment `pid` started with holds this run's marker, of a command not spared.
        private func isMarkedAndNotSpared(_ pid: pid_t) -> Bool {
            guard let entry = ProcFiles.processTokenEntry(of: pid), entry.starts(with: markerPrefix) else { return false }
            let token = UInt64(String(decoding: entry.dropFirst(markerPrefix.count), as: UTF8.self))
            return token.map { !spared.contains($0) } ?? true
        }

        /// The processes found that `processes` (a later snapshot) shows still running.
        func running(in processes: ProcessSnapshot) -> [pid_t] {
            found.compactMap { pid, entry in entry.member.isRunning(as: pid, in: processes) ? pid : nil }
        }

        /// Sends `signal` to every process found.
        func signal(_ signal: Int32) {
            for (pid, entry) in found { entry.member.send(signal, pid: pid) }
        }
    }
#endif
