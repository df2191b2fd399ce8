import StartupKit
import StartupSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Capture files made ahead, and used empty ones closed afterwards, by whoever made the last spawn (a launch thread,
/// or the engine's after a spawn of its own), once the spawn is made: between one command's exit and the next
/// command's spawn no memory file is made or closed, since those system calls would sit on the path a freed `-j`
/// slot waits on. A file that holds output is closed at once, so no memory is kept; the engine closes the empty ones
/// left when nothing runs.
final class CaptureFilePool: Sendable {
    /// The process's pool.
    static let shared = CaptureFilePool()

    /// Spare files kept ready.
    private static let spareCount = 4
    /// Used files beyond this many are closed at once by whoever returns them.
    private static let retiredLimit = 64

    private struct State {
        /// Open, empty capture files no one has used.
        var spare: [Int32] = []
        /// Used capture files, to close.
        var retired: [Int32] = []
        /// A file was asked for: spares are worth making.
        var isWanted = false
    }

    /// Guards the two lists and the flag; no system call is made under it.
    private let state = Locked(State())

    /// A spare capture file's descriptor, if one is ready.
    func take() -> Int32? {
        state.withLock { state in
            state.isWanted = true
            return state.spare.popLast()
        }
    }

    /// Takes back a used capture file: one that holds output is closed at once (its memory is freed), an empty
    /// one on the next `replenish()` or `closeRetired()` (at once past `retiredLimit`).
    func retire(_ descriptor: Int32) {
        let isEmpty = lseek(descriptor, 0, SEEK_END) == 0
        let closesNow =
            !isEmpty
            || state.withLock { state in
                guard state.retired.count < Self.retiredLimit else { return true }
                state.retired.append(descriptor)
                return false
            }
        if closesNow { _ = closeDescriptor(descriptor) }
    }

    /// Closes the used files (the engine's thread does, when it has nothing running).
    func closeRetired() {
        let retired = state.withLock { state in
            defer { state.retired = [] }
            return state.retired
        }
        for descriptor in retired { _ = closeDescriptor(descriptor) }
    }

    /// Closes the used files and, once files are asked for, makes spares up to `spareCount`.
    func replenish() {
        let (retired, missing) = state.withLock { state in
            defer { state.retired = [] }
            return (state.retired, state.isWanted ? Self.spareCount - state.spare.count : 0)
        }
        for descriptor in retired { _ = closeDescriptor(descriptor) }
        guard missing > 0 else { return }
        var made: [Int32] = []
        for _ in 0..<missing {
            guard let descriptor = CaptureFile.makeMemoryFile() else { break }
            made.append(descriptor)
        }
        if !made.isEmpty { state.withLock { $0.spare += made } }
    }
}
