#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The wall clock (`CLOCK_REALTIME`), the one clock that other processes read too: a moment one program
/// records can be compared with a moment another records.
enum WallClock {
    /// Nanoseconds since 1970.
    static func nanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}
