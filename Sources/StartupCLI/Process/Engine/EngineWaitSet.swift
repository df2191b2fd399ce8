#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the engine's thread sleeps on: a wake pipe other threads write to, and (Linux) in one epoll set either a
/// signalfd that reads SIGCHLD, for every child at once, or the pidfds of running children, each registered under
/// its child's token.
struct EngineWaitSet: ~Copyable {
    /// The key of the wake pipe; child tokens start at 1.
    private static let wakeToken: UInt64 = 0
    /// The key of the SIGCHLD signalfd; child tokens never reach it.
    private static let childSignalToken = UInt64.max
    /// Read and write ends of the wake pipe, both non-blocking and close-on-exec.
    private let wakeRead: Int32
    private let wakeWrite: Int32
    #if os(Linux)
        /// The epoll set, or -1 where epoll cannot be used (then only the wake pipe is watched, with `poll`).
        private let epoll: Int32
    #endif
    /// The signalfd that reads SIGCHLD, in the epoll set, or -1 when the set watches each child's pidfd instead.
    private let childSignals: Int32

    /// Creates the pipe (and on Linux the epoll set); exits 71 if there are no descriptors left
    /// (``OutOfResources``), as no child could be run anyway. With `readingChildSignals` (SIGCHLD must then be blocked in every thread of
    /// the process, see ``ProcessEngine/ownEveryChild()``), it watches SIGCHLD rather than pidfds where it can.
    init(readingChildSignals: Bool) {
        guard let ends = makeCloseOnExecPipe(nonBlockingRead: true, nonBlockingWrite: true) else {
            OutOfResources.exit(cannot: "create the process engine's wake pipe", errno: errno)
        }
        (wakeRead, wakeWrite) = ends
        #if os(Linux)
            let epoll = SpawnExtensions.epollCreate1.map { $0(Self.closeOnExec) } ?? -1
            if epoll >= 0, !Self.control(epoll, Self.controlAdd, wakeRead, token: Self.wakeToken) {
                OutOfResources.exit(cannot: "watch the process engine's wake pipe", errno: errno)
            }
            self.epoll = epoll
            childSignals = readingChildSignals && epoll >= 0 ? Self.openChildSignals(into: epoll) : -1
        #else
            childSignals = -1
        #endif
    }

    #if os(Linux)
        /// A non-blocking signalfd for SIGCHLD added to `epoll`, or -1 if either step fails.
        private static func openChildSignals(into epoll: Int32) -> Int32 {
            guard let signalDescriptor = SpawnExtensions.signalDescriptor else { return -1 }
            var signals = sigset_t()
            sigemptyset(&signals)
            sigaddset(&signals, SIGCHLD)
            let descriptor = signalDescriptor(-1, &signals, Int32(O_NONBLOCK) | closeOnExec)
            guard descriptor >= 0 else { return -1 }
            guard control(epoll, controlAdd, descriptor, token: childSignalToken) else {
                _ = close(descriptor)
                return -1
            }
            return descriptor
        }
    #endif

    /// Whether every child's exit is noticed through SIGCHLD: the loop then finds exited children with `waitid`.
    var readsChildSignals: Bool { childSignals >= 0 }

    /// Wakes the thread sleeping in `wait` (callable from any thread; a full pipe already means "awake").
    func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// Whether each child's pidfd is to be watched here (not when SIGCHLD is read).
    var watchesPidfds: Bool {
        #if os(Linux)
            epoll >= 0 && childSignals < 0
        #else
            false
        #endif
    }

    /// Adds a child's pidfd under its token (from any thread); `false` (with errno set) if it cannot be watched.
    /// Its exit is reported once (edge-triggered), also when the child exited before it was added; the loop may
    /// see it before the launch thread has handed the launch over, and keeps it until then.
    func add(pidfd: Int32, token: UInt64) -> Bool {
        #if os(Linux)
            return epoll >= 0 && Self.control(epoll, Self.controlAdd, pidfd, token: token, events: Self.epollIn | Self.edgeTriggered)
        #else
            return false
        #endif
    }

    /// Removes a pidfd before it is closed (a copy held by a concurrent fork elsewhere would keep it registered).
    func remove(pidfd: Int32) {
        #if os(Linux)
            _ = SpawnExtensions.epollControl?(epoll, Self.controlDelete, pidfd, nil)
        #endif
    }

    /// What a `wait` saw.
    struct Wake {
        /// The tokens of the children whose pidfd became readable.
        var exited: [UInt64] = []
        /// SIGCHLD came: some child, perhaps several, has exited.
        var childSignalled = false
    }

    /// Sleeps until a watched pidfd is readable, SIGCHLD comes, the pipe is written to, or `timeoutMilliseconds`
    /// pass (-1: no limit, 0: just look).
    func wait(timeoutMilliseconds: Int32) -> Wake {
        var wake = Wake()
        #if os(Linux)
            if epoll >= 0, let epollWait = SpawnExtensions.epollWait {
                var events = [UInt8](repeating: 0, count: Self.capacity * Self.eventSize)
                let count = events.withUnsafeMutableBytes {
                    epollWait(epoll, $0.baseAddress, Int32(Self.capacity), timeoutMilliseconds)
                }
                guard count > 0 else { return wake }  // timeout or EINTR
                events.withUnsafeBytes { bytes in
                    for index in 0..<Int(count) {
                        let token = bytes.loadUnaligned(fromByteOffset: index * Self.eventSize + Self.dataOffset, as: UInt64.self)
                        switch token {
                        case Self.wakeToken: drain(wakeRead)
                        case Self.childSignalToken:
                            drain(childSignals)
                            wake.childSignalled = true
                        default: wake.exited.append(token)
                        }
                    }
                }
                return wake
            }
        #endif
        var descriptor = pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)
        if poll(&descriptor, 1, timeoutMilliseconds) > 0 { drain(wakeRead) }
        return wake
    }

    /// Empties the wake pipe or the signalfd (whose reads are whole 128-byte records), so the next `wait` sleeps
    /// again. A read that does not fill the buffer took all there was: one read, as a rule.
    private func drain(_ descriptor: Int32) {
        var buffer = [UInt8](repeating: 0, count: 1_024)
        while buffer.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) == buffer.count {}
    }

    deinit {
        #if os(Linux)
            if epoll >= 0 { _ = close(epoll) }
        #endif
        if childSignals >= 0 { _ = close(childSignals) }
        _ = close(wakeRead)
        _ = close(wakeWrite)
    }

    #if os(Linux)
        /// Most events taken from the kernel per `epoll_wait`.
        private static let capacity = 64
        // `struct epoll_event` is packed on x86_64 (12 bytes), naturally aligned elsewhere (16).
        #if arch(x86_64)
            private static let eventSize = 12
            private static let dataOffset = 4
        #else
            private static let eventSize = 16
            private static let dataOffset = 8
        #endif
        private static let epollIn: UInt32 = 0x001
        private static let edgeTriggered: UInt32 = 1 << 31
        private static let controlAdd: Int32 = 1
        private static let controlDelete: Int32 = 2
        private static let closeOnExec: Int32 = 0o2_000_000

        /// `epoll_ctl` on `epoll` with `events` (`EPOLLIN` unless told) keyed by `token`.
        private static func control(
            _ epoll: Int32, _ operation: Int32, _ descriptor: Int32, token: UInt64, events: UInt32 = epollIn
        ) -> Bool {
            guard let epollControl = SpawnExtensions.epollControl else { return false }
            var event = [UInt8](repeating: 0, count: eventSize)
            event.withUnsafeMutableBytes { bytes in
                bytes.storeBytes(of: events, toByteOffset: 0, as: UInt32.self)
                bytes.storeBytes(of: token, toByteOffset: dataOffset, as: UInt64.self)
            }
            return event.withUnsafeMutableBytes { epollControl(epoll, operation, descriptor, $0.baseAddress) } == 0
        }
    #endif
}
