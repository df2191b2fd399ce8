#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the engine's thread sleeps on: a wake pipe other threads write to, and (Linux) the pidfds of running
/// children in one epoll set, each registered under its child's token.
struct EngineWaitSet: ~Copyable {
    /// The key of the wake pipe; child tokens start at 1.
    private static let wakeToken: UInt64 = 0
    /// Read and write ends of the wake pipe, both non-blocking and close-on-exec.
    private let wakeRead: Int32
    private let wakeWrite: Int32
    #if os(Linux)
        /// The epoll set, or -1 where epoll cannot be used (then only the wake pipe is watched, with `poll`).
        private let epoll: Int32
    #endif

    /// Creates the pipe (and on Linux the epoll set); stops the process if there are no descriptors left, as
    /// no child could be run anyway.
    init() {
        var ends: [Int32] = [-1, -1]
        precondition(pipe(&ends) == 0, "startup: cannot create the process engine's wake pipe: \(errnoDescription(errno))")
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        wakeRead = ends[0]
        wakeWrite = ends[1]
        #if os(Linux)
            epoll = SpawnExtensions.epollCreate1.map { $0(Self.closeOnExec) } ?? -1
            if epoll >= 0, !control(Self.controlAdd, wakeRead, token: Self.wakeToken) {
                preconditionFailure("startup: cannot watch the process engine's wake pipe: \(errnoDescription(errno))")
            }
        #endif
    }

    /// Wakes the thread sleeping in `wait` (callable from any thread; a full pipe already means "awake").
    func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// Whether pidfds can be watched here.
    var watchesPidfds: Bool {
        #if os(Linux)
            epoll >= 0
        #else
            false
        #endif
    }

    /// Adds a child's pidfd under its token (from any thread); `false` (with errno set) if it cannot be watched.
    /// Its exit is reported once (edge-triggered), also when the child exited before it was added; the loop may
    /// see it before the launch thread has handed the launch over, and keeps it until then.
    func add(pidfd: Int32, token: UInt64) -> Bool {
        #if os(Linux)
            return epoll >= 0 && control(Self.controlAdd, pidfd, token: token, events: Self.epollIn | Self.edgeTriggered)
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

    /// Sleeps until a watched pidfd is readable, the pipe is written to, or `timeoutMilliseconds` pass (-1:
    /// no limit, 0: just look). Returns the tokens of the children whose pidfd is readable.
    func wait(timeoutMilliseconds: Int32) -> [UInt64] {
        #if os(Linux)
            if epoll >= 0, let epollWait = SpawnExtensions.epollWait {
                var events = [UInt8](repeating: 0, count: Self.capacity * Self.eventSize)
                let count = events.withUnsafeMutableBytes {
                    epollWait(epoll, $0.baseAddress, Int32(Self.capacity), timeoutMilliseconds)
                }
                guard count > 0 else { return [] }  // timeout or EINTR
                var tokens: [UInt64] = []
                tokens.reserveCapacity(Int(count))
                events.withUnsafeBytes { bytes in
                    for index in 0..<Int(count) {
                        let token = bytes.loadUnaligned(fromByteOffset: index * Self.eventSize + Self.dataOffset, as: UInt64.self)
                        if token == Self.wakeToken { drainWakePipe() } else { tokens.append(token) }
                    }
                }
                return tokens
            }
        #endif
        var descriptor = pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)
        if poll(&descriptor, 1, timeoutMilliseconds) > 0 { drainWakePipe() }
        return []
    }

    /// Empties the wake pipe, so the next `wait` sleeps again.
    private func drainWakePipe() {
        var buffer = [UInt8](repeating: 0, count: 256)
        while buffer.withUnsafeMutableBytes({ read(wakeRead, $0.baseAddress, $0.count) }) > 0 {}
    }

    deinit {
        #if os(Linux)
            if epoll >= 0 { _ = close(epoll) }
        #endif
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

        /// `epoll_ctl` with `events` (`EPOLLIN` unless told) keyed by `token`.
        private func control(_ operation: Int32, _ descriptor: Int32, token: UInt64, events: UInt32 = epollIn) -> Bool {
            guard let epollControl = SpawnExtensions.epollControl else { return false }
            var event = [UInt8](repeating: 0, count: Self.eventSize)
            event.withUnsafeMutableBytes { bytes in
                bytes.storeBytes(of: events, toByteOffset: 0, as: UInt32.self)
                bytes.storeBytes(of: token, toByteOffset: Self.dataOffset, as: UInt64.self)
            }
            return event.withUnsafeMutableBytes { epollControl(epoll, operation, descriptor, $0.baseAddress) } == 0
        }
    #endif
}
