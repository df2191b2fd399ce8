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
    /// The waiter of each registered pidfd.
    private let waiters = Locked<[Int32: CheckedContinuation<Int32, Never>]>([:])

    // `struct epoll_event` is packed on x86_64 (12 bytes), naturally aligned elsewhere (16).
    #if arch(x86_64)
    private static let eventSize = 12
    private static let dataOffset = 4
    #else
    private static let eventSize = 16
    private static let dataOffset = 8
    #endif
    private static let epollIn: UInt32 = 0x001
    private static let controlAdd: Int32 = 1
    private static let closeOnExec: Int32 = 0o2_000_000

    private init?() {
        guard let create = SpawnExtensions.epollCreate1, let control = SpawnExtensions.epollControl,
              let wait = SpawnExtensions.epollWait else { return nil }
        let epoll = create(Self.closeOnExec)
        guard epoll >= 0 else { return nil }
        self.epoll = epoll
        self.control = control
        let waiters = self.waiters
        DedicatedThread.run { Self.watch(epoll: epoll, wait: wait, waiters: waiters) }
    }

    /// Waits until the process behind `pidfd` has exited, then closes `pidfd`.
    ///
    /// - Returns: 0, or the `errno` of a failed registration (the caller then waits another way;
    ///   `pidfd` is left open for it).
    func exited(pidfd: Int32) async -> Int32 {
        await withCheckedContinuation { continuation in
            waiters.withLock { $0[pidfd] = continuation }
            var event = [UInt8](repeating: 0, count: Self.eventSize)
            event.withUnsafeMutableBytes { bytes in
                bytes.storeBytes(of: Self.epollIn, toByteOffset: 0, as: UInt32.self)
                bytes.storeBytes(of: UInt64(UInt32(bitPattern: pidfd)), toByteOffset: Self.dataOffset, as: UInt64.self)
            }
            let added = event.withUnsafeMutableBytes { control(epoll, Self.controlAdd, pidfd, $0.baseAddress) }
            if added != 0 {
                let code = errno
                if let waiter = waiters.withLock({ $0.removeValue(forKey: pidfd) }) { waiter.resume(returning: code) }
            }
        }
    }

    /// The monitor thread: forever waits for readable pidfds, closes them (which also removes them
    /// from the set) and resumes their waiters.
    private static func watch(
        epoll: Int32, wait: SpawnExtensions.EpollWait, waiters: Locked<[Int32: CheckedContinuation<Int32, Never>]>
    ) {
        let capacity: Int32 = 64
        var events = [UInt8](repeating: 0, count: Int(capacity) * eventSize)
        while true {
            let count = events.withUnsafeMutableBytes { wait(epoll, $0.baseAddress, capacity, -1) }
            guard count > 0 else { continue }  // EINTR
            var ready: [Int32] = []
            events.withUnsafeBytes { bytes in
                for index in 0..<Int(count) {
                    let data = bytes.loadUnaligned(fromByteOffset: index * eventSize + dataOffset, as: UInt64.self)
                    ready.append(Int32(truncatingIfNeeded: data))
                }
            }
            for pidfd in ready {
                guard let waiter = waiters.withLock({ $0.removeValue(forKey: pidfd) }) else { continue }
                _ = close(pidfd)
                waiter.resume(returning: 0)
            }
        }
    }
}
#endif
