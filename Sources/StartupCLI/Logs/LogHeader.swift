#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The line a log gets each time its command or service starts, before what that start writes:
/// `--- startup: attempt 2 at 2025-06-01T14:03:07.123+02:00 ---` (local time, with its offset from UTC).
///
/// The time is read when the start is logged (one `clock_gettime`); the line is made on the log's writer thread.
struct LogHeader: Sendable {
    /// Which start a header announces.
    enum Start: Sendable, Equatable {
        /// An attempt of a command or of a service before it was ready, counted from 1.
        case attempt(Int)
        /// A service's restart after it ended, counted from 1.
        case restart(Int)
    }

    /// Which start this is.
    let start: Start
    /// When it started (`CLOCK_REALTIME`).
    let time: timespec

    /// A header for `start`, timed now.
    init(_ start: Start) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        self.init(start, time: now)
    }

    /// A header for `start` at `time`.
    init(_ start: Start, time: timespec) {
        self.start = start
        self.time = time
    }

    /// The line, with its line break.
    var line: String {
        let what =
            switch start {
            case .attempt(let number): "attempt \(number)"
            case .restart(let number): "restart \(number)"
            }
        return "--- startup: \(what) at \(Self.timestamp(time)) ---\n"
    }

    /// `time` in ISO 8601, local, to the millisecond: `2025-06-01T14:03:07.123+02:00`.
    static func timestamp(_ time: timespec) -> String {
        var seconds = time_t(time.tv_sec)
        var fields = tm()
        guard localtime_r(&seconds, &fields) != nil else { return "\(time.tv_sec)s since 1970" }
        let offset = Int(fields.tm_gmtoff)
        return timestamp(
            year: Int(fields.tm_year) + 1900, month: Int(fields.tm_mon) + 1, day: Int(fields.tm_mday), hour: Int(fields.tm_hour),
            minute: Int(fields.tm_min), second: Int(fields.tm_sec), millisecond: Int(time.tv_nsec) / 1_000_000, offset: offset)
    }

    /// The ISO 8601 text of a local time whose offset from UTC is `offset` seconds (east positive).
    static func timestamp(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, millisecond: Int, offset: Int) -> String {
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let zone = "\(offset < 0 ? "-" : "+")\(padded(abs(offset) / 3_600, 2)):\(padded(abs(offset) % 3_600 / 60, 2))"
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))T\(padded(hour, 2)):\(padded(minute, 2)):\(padded(second, 2))"
            + ".\(padded(millisecond, 3))\(zone)"
    }
}
