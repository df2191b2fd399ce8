import Foundation
import Testing

@testable import StartupCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a stop signals beyond the process group: only processes that are still the ones `/proc` showed.
@Suite struct ProcessTreeTests {
    #if os(Linux)
        /// The pidfd system calls are made directly, not through the C library's wrappers (glibc 2.36+).
        @Test func pidfdSystemCalls_areAvailableWithoutTheCLibrarysWrappers() throws {
            let pidfdOpen = try #require(SpawnExtensions.pidfdOpen)
            let send = try #require(SpawnExtensions.pidfdSendSignal)
            let pidfd = pidfdOpen(getpid(), 0)
            try #require(pidfd >= 0, "pidfd_open: \(errnoDescription(errno))")
            defer { _ = close(pidfd) }
            #expect(send(pidfd, 0) == 0, "pidfd_send_signal: \(errnoDescription(errno))")
        }

        @Test func aProcessThatIsNotTheOneTheSnapshotSaw_isLeftAlone_theOneItSawIsSignalled() throws {
            let victim = Process()
            victim.executableURL = URL(fileURLWithPath: "/bin/sleep")
            victim.arguments = ["100"]
            try victim.run()
            let pid = victim.processIdentifier
            defer {
                _ = kill(pid, SIGKILL)
                victim.waitUntilExit()
            }
            let seen = try #require(ProcessSnapshot.current().entries.first { $0.pid == pid })
            let leader: pid_t = 999_999_999  // a made-up leader whose child the snapshot says `pid` is
            let noExclusions = [pid_t: UInt64]().keys

            // As if `pid` had been reused since the snapshot: another start time.
            let reused = ProcessSnapshot.Entry(pid: pid, parent: leader, group: pid, session: pid, startTime: seen.startTime + 1)
            var stranger = ProcessTree(leader: leader, marker: nil)
            stranger.extend(from: [reused], excluding: noExclusions)
            stranger.signal(SIGTERM)
            stranger.close()
            #expect(stranger.members.isEmpty)
            #expect(SpawnTestSupport.isRunningAndUnsignalled(pid), "a process that reused a member's pid was signalled")

            let same = ProcessSnapshot.Entry(pid: pid, parent: leader, group: pid, session: pid, startTime: seen.startTime)
            var member = ProcessTree(leader: leader, marker: nil)
            member.extend(from: [same], excluding: noExclusions)
            member.signal(SIGTERM)
            member.close()
            #expect(member.members.keys.sorted() == [pid])
            #expect(!SpawnTestSupport.isRunningAndUnsignalled(pid), "the member the snapshot saw was not signalled")
        }
    #endif
}
