#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pipe whose ends are both close-on-exec, each also non-blocking when asked: the ends, or `nil` with `errno` set.
func makeCloseOnExecPipe(nonBlockingRead: Bool = false, nonBlockingWrite: Bool = false) -> (read: Int32, write: Int32)? {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return nil }
    for (end, nonBlocking) in zip(ends, [nonBlockingRead, nonBlockingWrite]) {
        _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        if nonBlocking { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
    }
    return (ends[0], ends[1])
}
