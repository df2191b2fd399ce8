#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads line-feed-ended lines from a blocking socket, each at most `limit` bytes, optionally by a deadline.
struct SocketLineReader {
    /// What a read brought.
    enum Outcome: Equatable {
        /// A line, without its line feed.
        case line([UInt8])
        /// The peer closed the connection (what came after the last line feed, if anything, is dropped).
        case closed
        /// More than `limit` bytes came without a line feed.
        case tooLong
        /// Nothing complete came by the deadline.
        case timedOut
    }

    /// The socket.
    let descriptor: Int32
    /// The longest line.
    let limit: Int
    /// Bytes read after the last line returned.
    private var buffer: [UInt8] = []
    /// Where the search for a line feed in `buffer` goes on.
    private var searched = 0

    /// A reader of `descriptor`'s lines of at most `limit` bytes.
    init(descriptor: Int32, limit: Int) {
        self.descriptor = descriptor
        self.limit = limit
    }

    /// The next line; with `deadline` (a `DispatchTime`-like uptime in nanoseconds, see ``Self/now()``), gives up
    /// then.
    mutating func next(deadline: UInt64? = nil) -> Outcome {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            if let end = buffer[searched...].firstIndex(of: UInt8(ascii: "\n")) {
                guard end <= limit else { return .tooLong }
                let line = Array(buffer[..<end])
                buffer.removeSubrange(...end)
                searched = 0
                return .line(line)
            }
            searched = buffer.count
            if buffer.count > limit { return .tooLong }
            if let deadline {
                let now = Self.now()
                guard now < deadline else { return .timedOut }
                var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                let milliseconds = Int32(clamping: (deadline - now + 999_999) / 1_000_000)
                let ready = poll(&entry, 1, milliseconds)
                if ready < 0, errno == EINTR { continue }
                if ready < 0 { return .closed }  // a `recv` now could block past the deadline
                if ready == 0 { continue }
            }
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return .closed }
            buffer += chunk[..<count]
        }
    }

    /// The monotonic clock, in nanoseconds.
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
