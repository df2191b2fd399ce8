#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension RunGuardian {
    /// Runs the guardian when `arguments` (the whole command line) ask for it, and never returns then; returns at
    /// once otherwise. For the binary's first line.
    package static func serveIfAsked(_ arguments: [String]) {
        #if os(Linux)
            guard arguments.count == 4, arguments[1] == argument else { return }
            guard isRunMarkerPrefix(arguments[2]), let milliseconds = Int64(arguments[3]), (0...3_600_000).contains(milliseconds)
            else {
                say("\(argument) is for startup run's own use")
                exit(ExitCode.usage.rawValue)
            }
            serve(markerPrefix: arguments[2], gracePeriod: .milliseconds(milliseconds))
        #endif
    }

    #if os(Linux)
        /// Whether `prefix` is one run's marker prefix (``ProcessTree/runMarkerPrefix``: the variable, `=`, the run's
        /// letters and digits, `.`), so that no other words make a guardian stop the processes of every run.
        private static func isRunMarkerPrefix(_ prefix: String) -> Bool {
            let start = "\(ProcessSpec.processTokenVariable)="
            guard prefix.hasPrefix(start), prefix.hasSuffix(".") else { return false }
            let run = prefix.dropFirst(start.count).dropLast()
            return !run.isEmpty && run.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }

        /// How often the guardian looks whether what it stopped is gone.
        private static let lookInterval = Duration.milliseconds(50)

        /// Waits for the run to end, reading what it says; if it ended without saying so, stops what it left (see
        /// ``RunGuardian``) and exits.
        private static func serve(markerPrefix: String, gracePeriod: Duration) -> Never {
            _ = setsid()
            for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE] { Glibc.signal(signal, SIG_IGN) }
            var lines = RunLines()
            guard !lines.readUntilTheRunEnds() else { exit(0) }  // the run ended by itself

            let clock = ContinuousClock()
            let deadline = clock.now.advanced(by: gracePeriod)
            var left = LeftBehind(markerPrefix: Array(markerPrefix.utf8), sparing: lines.ended)
            var processes = ProcessSnapshot.current()
            left.find(in: processes, signalling: SIGTERM)
            guard !left.isEmpty else { exit(0) }
            let what = left.count == 1 ? "the 1 process" : "the \(left.count) processes"
            say("the run ended without stopping what it started; SIGTERM to \(what) it left")
            while clock.now < deadline {
                sleepUninterrupted(for: min(lookInterval, clock.now.duration(to: deadline)))
                processes = ProcessSnapshot.current()
                left.find(in: processes, signalling: SIGTERM)
                if left.running(in: processes).isEmpty { exit(0) }
            }
            let killed = left.running(in: processes).count
            left.signal(SIGKILL)
            say("SIGKILL to the \(killed) still running after the grace period")
            exit(0)
        }

        /// Writes `message` as one line to standard error (`startup`'s, inherited).
        private static func say(_ message: String) {
            let line = Array("startup: \(message)\n".utf8)
            _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        }

        /// Sleeps for `duration` on this thread (the guardian has no other).
        private static func sleepUninterrupted(for duration: Duration) {
            let (seconds, attoseconds) = duration.components
            var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
            var remaining = timespec()
            while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
        }
    #endif
}

#if os(Linux)
    /// What the run tells its guardian on standard input, one line each: the commands that ended by themselves, and
    /// at last that it exits by itself. Read once a second, and at once when the run's end closes the pipe, so the run's
    /// lines cost it no wake-up of the guardian.
    struct RunLines {
        /// The spawn tokens of the commands that ended by themselves.
        private(set) var ended: Set<UInt64> = []
        /// A line not complete yet.
        private var partial: [UInt8] = []

        /// Reads until the pipe closes: `true` if the run said it exits by itself, `false` if it vanished.
        mutating func readUntilTheRunEnds() -> Bool {
            _ = fcntl(0, F_SETFL, fcntl(0, F_GETFL) | O_NONBLOCK)
            while true {
                var watch = pollfd(fd: 0, events: 0, revents: 0)  // a hang-up is reported unasked
                _ = poll(&watch, 1, 1_000)
                switch drain() {
                case .dismissed: return true
                case .closed: return false
                case .open: continue
                }
            }
        }

        /// What a drain of the pipe found.
        private enum Drained {
            case dismissed, closed, open
        }

        /// Reads every line available.
        private mutating func drain() -> Drained {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(0, &buffer, buffer.count)
                if count == 0 { return .closed }
                if count < 0 && errno == EINTR { continue }
                if count < 0 { return errno == EAGAIN ? .open : .closed }
                for byte in buffer[..<count] {
                    guard byte == UInt8(ascii: "\n") else {
                        partial.append(byte)
                        continue
                    }
                    let line = String(decoding: partial, as: UTF8.self)
                    partial.removeAll(keepingCapacity: true)
                    if line == RunGuardian.dismissal { return .dismissed }
                    if line.hasPrefix(RunGuardian.endedPrefix), let token = UInt64(line.dropFirst(RunGuardian.endedPrefix.count)) {
                        ended.insert(token)
                    }
                }
            }
        }
    }
#endif
