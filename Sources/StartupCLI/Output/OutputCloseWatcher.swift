import StartupKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Notices, on a thread of its own, that the reader of standard output went away (a pipe or socket whose other end
/// closed) while nothing is being written: a failed write tells the console as much, but a run that prints nothing
/// more (a held `--keep-running`, a long quiet command) would otherwise never learn it and stay up with nobody
/// reading. Only for a pipe or a socket: a terminal's hang-up comes as SIGHUP, and a file has no reader. A TCP peer
/// that closes cleanly shows only at the next write (it reports no error or hang-up, and asking for its half-close
/// would stop the run when it merely stops sending).
final class OutputCloseWatcher: Sendable {
    /// The write end of the pipe that ends the watch, close-on-exec.
    private let stopEnd: Int32

    /// Starts watching `descriptor` (standard output); `onClose` is called once if its reader goes away before
    /// ``stop()``. `nil` when `descriptor` is not a pipe or a socket, or no pipe could be made to end the watch.
    init?(_ descriptor: Int32 = STDOUT_FILENO, onClose: @escaping @Sendable () -> Void) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        let type = info.st_mode & mode_t(S_IFMT)
        guard type == mode_t(S_IFIFO) || type == mode_t(S_IFSOCK) else { return nil }
        guard let ends = makeCloseOnExecPipe() else { return nil }
        stopEnd = ends.write
        let stopRead = ends.read
        DedicatedThread.run {
            if Self.readerLeaves(descriptor, unless: stopRead) { onClose() }
            _ = closeDescriptor(stopRead)
        }
    }

    /// Ends the watch.
    func stop() {
        _ = closeDescriptor(stopEnd)
    }

    /// Waits until `descriptor` reports an error or a hang-up (its reader left: `true`) or `stop` becomes readable
    /// (closed: `false`).
    private static func readerLeaves(_ descriptor: Int32, unless stop: Int32) -> Bool {
        // No event asked for on `descriptor`: errors and hang-ups are always reported.
        var watched = [pollfd(fd: descriptor, events: 0, revents: 0), pollfd(fd: stop, events: Int16(POLLIN), revents: 0)]
        while poll(&watched, nfds_t(watched.count), -1) < 0 {
            guard errno == EINTR else { return false }
        }
        return watched[1].revents == 0 && watched[0].revents & Int16(POLLERR | POLLHUP) != 0
    }
}
