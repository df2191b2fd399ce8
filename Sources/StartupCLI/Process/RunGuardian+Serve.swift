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
            guard arguments.count == 4, arguments[1] == argument, let milliseconds = Int64(arguments[3]) else { return }
            serve(markerPrefix: arguments[2], gracePeriod: .milliseconds(milliseconds))
        #endif
    }

    #if os(Linux)
        /// How often the guardian looks whether what it stopped is gone.
        private static let lookInterval = Duration.milliseconds(50)

        /// Waits for the run to end; if it ended without saying so, stops what it left (see ``RunGuardian``) and
        /// exits.
        private static func serve(markerPrefix: String, gracePeriod: Duration) -> Never {
            _ = setsid()
            for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE] { Glibc.signal(signal, SIG_IGN) }
            var byte: UInt8 = 0
            var count: Int
            repeat {
                count = read(0, &byte, 1)
            } while count < 0 && errno == EINTR
            guard count <= 0 else { exit(0) }  // the run ended by itself

            let clock = ContinuousClock()
            let deadline = clock.now.advanced(by: gracePeriod)
            var left = LeftBehind(markerPrefix: Array(markerPrefix.utf8))
            var processes = ProcessSnapshot.current()
            left.find(in: processes, signalling: SIGTERM)
            guard !left.isEmpty else { exit(0) }
            say("startup ended without stopping what it started; stopping \(left.count) processes it left")
            while clock.now < deadline {
                sleepUninterrupted(for: min(lookInterval, clock.now.duration(to: deadline)))
                processes = ProcessSnapshot.current()
                left.find(in: processes, signalling: SIGTERM)
                if left.running(in: processes).isEmpty { exit(0) }
            }
            let killed = left.running(in: processes).count
            left.signal(SIGKILL)
            say("killed \(killed) processes still there after the grace period")
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
