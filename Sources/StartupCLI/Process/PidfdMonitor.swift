#if os(Linux)
import Glibc
import StartupKit

/// Waits for the exits of many children with one thread: their pidfds sit in one epoll set, and
/// the thread resumes each child's waiter the moment its pidfd becomes readable.
///
/// Cheaper than a Dispatch source per child, which costs wake-ups of Dispatch's manager thread
/// to register and cancel, and a hop through a queue before the waiter is resumed.
final class PidfdMonitor: Sendable {
    /// The process's monitor, or `nil` where epoll cannot be used.
    static let shared = PidfdMonitor()

    private let epoll: Int32
    private let control: SpawnExtensions.EpollControl
    /// Each registration's pidfd and waiter, by a token that is never reused. The token, not the
    /// pidfd, is the epoll key: a spawn in progress can briefly hold a copy of a closed pidfd,
    /// which keeps its old registration alive under a number that may already name another pidfd.
    private let waiters = Locked<(next: UInt64, byToken: [UInt64: (pidfd: Int32, waiter: CheckedContinuation<Int32, Never>)])>((0, [:]))

    // `struct epoll_event` is packed on x86_64 (12 bytes), naturally aligned elsewhere (16).
    #if arch(x86_64)
    private static let eventSize = 12
    private static let dataOffset = 4
    #else
    private static let eventSize = 16
    private static let dataOffset = 8
    #endif
    private static let epollIn: UInt32 = 0x001
    /// EPOLLONESHOT: a registration reports once, so a stale one cannot report forever.
    private static let oneShot: UInt32 = 0x4000_0000
    private static let controlAdd: Int32 = 1
    private static let controlDelete: Int32 = 2
    private static let closeOnExec: Int32 = 0o2_000_000

    private init?() {
        guard let create = SpawnExtensions.epollCreate1, let control = SpawnExtensions.epollControl,
              let wait = SpawnExtensions.epollWait else { return nil }
        let epoll = create(Self.closeOnExec)
        guard epoll >= 0 else { return nil }
        self.epoll = epoll
        self.control = control
        let waiters = self.waiters
        DedicatedThread.run { Self.watch(epoll: epoll, control: control, wait: wait, waiters: waiters) }
    }

    /// Waits until the process behind `pidfd` has exited, then closes `pidfd`.
    ///
    /// - Returns: 0, or the `errno` of a failed registration (the caller then waits another way;
    ///   `pidfd` is left open for it).
    func exited(pidfd: Int32) async -> Int32 {
        await withCheckedContinuation { continuation in
            let token = waiters.withLock { waiters in
                waiters.next += 1
                waiters.byToken[waiters.next] = (pidfd, continuation)
                return waiters.next
            }
            var event = [UInt8](repeating: 0, count: Self.eventSize)
            event.withUnsafeMutableBytes { bytes in
                bytes.storeBytes(of: Self.epollIn | Self.oneShot, toByteOffset: 0, as: UInt32.self)
                bytes.storeBytes(of: token, toByteOffset: Self.dataOffset, as: UInt64.self)
            }
            let added = event.withUnsafeMutableBytes { control(epoll, Self.controlAdd, pidfd, $0.baseAddress) }
            if added != 0 {
                let code = errno
                if let entry = waiters.withLock({ $0.byToken.removeValue(forKey: token) }) { entry.waiter.resume(returning: code) }
            }
        }
    }

    /// The monitor thread: forever waits for readable pidfds, closes them (which also removes them
    /// from the set) and resumes their waiters.
    private static func watch(
        epoll: Int32, control: SpawnExtensions.EpollControl, wait: SpawnExtensions.EpollWait,
        waiters: Locked<(next: UInt64, byToken: [UInt64: (pidfd: Int32, waiter: CheckedContinuation<Int32, Never>)])>
    ) {
        let capacity: Int32 = 64
        var events = [UInt8](repeating: 0, count: Int(capacity) * eventSize)
        while true {
            let count = events.withUnsafeMutableBytes { wait(epoll, $0.baseAddress, capacity, -1) }
            guard count > 0 else { continue }  // EINTR
            var ready: [UInt64] = []
            events.withUnsafeBytes { bytes in
                for index in 0..<Int(count) {
                    ready.append(bytes.loadUnaligned(fromByteOffset: index * eventSize + dataOffset, as: UInt64.self))
                }
            }
            for token in ready {
                // A token without a waiter is a stale registration (see `waiters`); one-shot, it is done.
                guard let entry = waiters.withLock({ $0.byToken.removeValue(forKey: token) }) else { continue }
                // Delete before closing: a copy of the descriptor held by a spawn in progress would
                // otherwise keep the registration alive.
                _ = control(epoll, controlDelete, entry.pidfd, nil)
                _ = close(entry.pidfd)
                entry.waiter.resume(returning: 0)
            }
        }
    }
}
#endif
