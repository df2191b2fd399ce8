import StartupKit
import StartupManifest
import StartupSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The changes under the manifest's folder that some command's watch rules could concern, as they happen:
/// inotify on Linux, FSEvents on macOS, polling every second elsewhere (and where those cannot be used,
/// which a notice says). The events are read on a thread of the source's own, which sleeps in the kernel
/// while nothing changes; Swift's cooperative pool only awaits ``events``.
final class FileChangeSource: Sendable {
    /// What the source reports.
    enum Event: Sendable, Equatable {
        /// Changes seen in one read, relative to the manifest's folder.
        case changes([WatchChange])
        /// Something a person should know: watches used up (and how to raise the limit), polling instead.
        case notice(String)
    }

    /// The source's events, until ``stop()``.
    let events: AsyncStream<Event>
    /// Resolved once the first watches are in place: a change made after it is seen.
    private let isWatching = OneShot<Bool>()
    /// Resolved once the thread has closed its descriptors and ended.
    private let hasEnded = OneShot<Bool>()
    /// The pipe whose write end ``stop()`` writes to, waking the thread.
    private let stopPipe: (read: Int32, write: Int32)
    /// Whether ``stop()`` was called.
    private let isStopping = Locked(false)

    /// Starts watching the folders of `scope` under `root`.
    ///
    /// - Parameters:
    ///   - root: The manifest's folder, an absolute path without symbolic links (`realpath`).
    ///   - scope: Which folders to watch.
    ///   - pollInterval: How often the polling fallback looks (where it is used).
    ///   - polls: Whether to poll even where the platform has notifications (for tests of the fallback).
    init(root: String, scope: WatchScope, pollInterval: Duration = .seconds(1), polls: Bool = false) {
        let (events, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .unbounded)
        self.events = events
        guard let ends = makeCloseOnExecPipe() else {
            // Out of descriptors: nothing is watched, and the notice says so.
            stopPipe = (-1, -1)
            continuation.yield(.notice("cannot watch files: \(errnoDescription(errno)); nothing is reloaded"))
            continuation.finish()
            _ = isWatching.resolve(false)
            _ = hasEnded.resolve(true)
            return
        }
        stopPipe = ends
        let stopRead = ends.read
        let isWatching = isWatching
        let hasEnded = hasEnded
        DedicatedThread.run { [continuation] in
            let emit: @Sendable (Event) -> Void = { continuation.yield($0) }
            let ready: @Sendable () -> Void = { _ = isWatching.resolve(true) }
            if polls {
                PollingWatch(root: root, scope: scope, emit: emit).run(interval: pollInterval, stop: stopRead, ready: ready)
            } else {
                Self.watch(root: root, scope: scope, pollInterval: pollInterval, stop: stopRead, emit: emit, ready: ready)
            }
            _ = isWatching.resolve(false)
            continuation.finish()
            _ = hasEnded.resolve(true)
        }
    }

    /// Returns once the first watches are in place (or the source has stopped).
    func watching() async {
        _ = await isWatching.value()
    }

    /// Stops watching: the thread closes its descriptors and ends, and ``events`` finishes. Later calls do nothing.
    func stop() {
        let first = isStopping.withLock { stopping in
            defer { stopping = true }
            return !stopping
        }
        guard first, stopPipe.write >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(stopPipe.write, &byte, 1)
        close(stopPipe.write)
    }

    /// The stop pipe's read end is closed only now: the thread may end first (an error), and a write to a pipe nobody
    /// can read would raise SIGPIPE.
    deinit {
        if stopPipe.read >= 0 { close(stopPipe.read) }
    }

    /// Returns once the thread has ended, after ``stop()``.
    func ended() async {
        _ = await hasEnded.value()
    }

    /// Watches on the calling thread until `stop` is readable: with the platform's notifications, else by polling.
    private static func watch(
        root: String, scope: WatchScope, pollInterval: Duration, stop: Int32, emit: @escaping @Sendable (Event) -> Void,
        ready: @escaping @Sendable () -> Void
    ) {
        #if os(Linux)
            var inotify: InotifyWatch
            do throws(InotifyWatch.Unavailable) {
                inotify = try InotifyWatch(root: root, scope: scope, emit: emit)
            } catch {
                emit(.notice("\(error.reason): polling every \(DurationText.format(pollInterval)) instead"))
                PollingWatch(root: root, scope: scope, emit: emit).run(interval: pollInterval, stop: stop, ready: ready)
                return
            }
            inotify.run(stop: stop, ready: ready)
        #elseif os(macOS)
            FSEventsWatch(root: root, scope: scope, emit: emit).run(stop: stop, ready: ready)
        #else
            emit(.notice("this system has neither inotify nor FSEvents: polling every \(DurationText.format(pollInterval))"))
            PollingWatch(root: root, scope: scope, emit: emit).run(interval: pollInterval, stop: stop, ready: ready)
        #endif
    }

    /// Waits until `descriptor` is readable or `stop` is (or the timeout passes, with one); returns whether
    /// `stop` is readable, that is, the source is stopping.
    static func waitReadable(_ descriptor: Int32?, stop: Int32, timeout: Duration? = nil) -> Bool {
        var fds = [pollfd(fd: stop, events: Int16(POLLIN), revents: 0)]
        if let descriptor { fds.append(pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)) }
        let milliseconds = timeout.map {
            Int32(clamping: $0.components.seconds * 1_000 + $0.components.attoseconds / 1_000_000_000_000_000)
        }
        while true {
            let result = poll(&fds, nfds_t(fds.count), milliseconds ?? -1)
            if result < 0, errno == EINTR { continue }
            return result < 0 || fds[0].revents != 0
        }
    }
}
