import Dispatch
import StartupKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Capture files made ahead of need, and empty ones closed after use, on a queue of their own: between one
/// command's exit and the next one's spawn, the engine's thread neither creates nor frees a file (an inode each,
/// which on ext4 costs as much as the rest of a spawn's bookkeeping). The queue wakes once per few commands.
///
/// A file that holds output is closed at once, so a retired file never keeps disk space.
final class CaptureFilePool: Sendable {
    /// The process's pool.
    static let shared = CaptureFilePool()

    /// Files kept ready; retired files are closed in batches of this many.
    private static let batch = 8

    private struct State {
        /// Open, empty capture files, ready to hand out.
        var ready: [Int32] = []
        /// Empty capture files used and not closed yet.
        var retired: [Int32] = []
        /// A refill or close is queued or running.
        var isWorking = false
        /// Creating a file failed: stop making them ahead (`take()` makes its own and reports why).
        var failed = false

        /// Whether the queue should run now; marks it working if so.
        mutating func needsWork() -> Bool {
            guard !isWorking, (!failed && ready.count < batch / 2) || retired.count >= batch else { return false }
            isWorking = true
            return true
        }
    }

    /// Guards the two lists and the flags; no system call is made under it.
    private let state = Locked(State())
    private let queue = DispatchQueue(label: "startup.capture-files")

    /// An open, empty capture file descriptor: a ready one, else one made now.
    func take() throws(SpawnFailure) -> Int32 {
        let (ready, wakes) = state.withLock { state in (state.ready.popLast(), state.needsWork()) }
        if wakes { queue.async { self.work() } }
        if let ready { return ready }
        return try CaptureFile.makeDescriptor()
    }

    /// Takes back a capture file its command is done with: an empty one is closed later with others, one with
    /// output at once.
    func release(_ descriptor: Int32) {
        guard lseek(descriptor, 0, SEEK_END) == 0 else {
            _ = close(descriptor)
            return
        }
        let wakes = state.withLock { state in
            state.retired.append(descriptor)
            return state.needsWork()
        }
        if wakes { queue.async { self.work() } }
    }

    /// Closes the retired files and makes ready ones, until neither is needed.
    private func work() {
        while true {
            let (closing, making) = state.withLock { state -> ([Int32], Int) in
                let closing = state.retired
                state.retired = []
                let making = state.failed ? 0 : max(0, Self.batch - state.ready.count)
                if closing.isEmpty && making == 0 { state.isWorking = false }
                return (closing, making)
            }
            if closing.isEmpty && making == 0 { return }
            for descriptor in closing { _ = close(descriptor) }
            var made: [Int32] = []
            var failed = false
            for _ in 0..<making {
                guard let descriptor = try? CaptureFile.makeDescriptor() else {
                    failed = true
                    break
                }
                made.append(descriptor)
            }
            state.withLock { state in
                state.ready += made
                state.failed = state.failed || failed
            }
        }
    }
}
