#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Non-portable process-spawning functions, resolved at run time with `dlsym`.
///
/// The Swift Glibc module is built without `_GNU_SOURCE`, so `posix_spawn_file_actions_addchdir_np` (glibc 2.29+)
/// and `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34+) are not visible to Swift even though the C header
/// declares them. Looking them up at run time also keeps older glibc working (callers fall back when `nil`) and
/// avoids availability/deprecation noise on Darwin, which has `addchdir_np` since macOS 10.15 but no `closefrom_np`.
/// `pidfd_open` (glibc 2.36+) is not in the Swift Glibc module either.
enum SpawnExtensions {
    /// C signature of `posix_spawn_file_actions_addchdir_np`.
    typealias AddChdir = @convention(c) (UnsafeMutablePointer<SpawnFileActions>, UnsafePointer<CChar>) -> Int32
    /// C signature of `posix_spawn_file_actions_addclosefrom_np`.
    typealias AddClosefrom = @convention(c) (UnsafeMutablePointer<SpawnFileActions>, Int32) -> Int32

    /// C signature of Linux `pidfd_open` (glibc 2.36+ wrapper).
    typealias PidfdOpen = @convention(c) (pid_t, UInt32) -> Int32

    /// `posix_spawn_file_actions_addchdir_np`, or `nil` when the C library lacks it.
    static let addChdir: AddChdir? = lookUp("posix_spawn_file_actions_addchdir_np", as: AddChdir.self)

    /// `posix_spawn_file_actions_addclosefrom_np`, or `nil` when the C library lacks it.
    static let addClosefrom: AddClosefrom? = lookUp("posix_spawn_file_actions_addclosefrom_np", as: AddClosefrom.self)

    /// `pidfd_open`, or `nil` when the C library lacks the wrapper (it still fails with ENOSYS on kernels < 5.3).
    static let pidfdOpen: PidfdOpen? = lookUp("pidfd_open", as: PidfdOpen.self)

    /// C signature of Linux `pidfd_send_signal` (glibc 2.36+ wrapper).
    typealias PidfdSendSignal = @convention(c) (Int32, Int32, UnsafeMutableRawPointer?, UInt32) -> Int32

    /// `pidfd_send_signal`, or `nil` when the C library lacks the wrapper.
    static let pidfdSendSignal: PidfdSendSignal? = lookUp("pidfd_send_signal", as: PidfdSendSignal.self)

    /// `prctl` with its five `unsigned long`-sized arguments (the C function is variadic).
    typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32

    /// Linux `prctl`, hidden by the Glibc module.
    static let prctl: Prctl? = lookUp("prctl", as: Prctl.self)

    typealias EpollCreate1 = @convention(c) (Int32) -> Int32
    typealias EpollControl = @convention(c) (Int32, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
    typealias EpollWait = @convention(c) (Int32, UnsafeMutableRawPointer?, Int32, Int32) -> Int32

    /// `epoll_create1`, `epoll_ctl` and `epoll_wait` (Linux), hidden by the Glibc module like the above.
    static let epollCreate1: EpollCreate1? = lookUp("epoll_create1", as: EpollCreate1.self)
    static let epollControl: EpollControl? = lookUp("epoll_ctl", as: EpollControl.self)
    static let epollWait: EpollWait? = lookUp("epoll_wait", as: EpollWait.self)

    /// Finds `symbol` in the global symbol scope and casts it to the C function type `type`.
    private static func lookUp<F>(_ symbol: String, as type: F.Type) -> F? {
        guard let handle = dlopen(nil, RTLD_NOW), let address = dlsym(handle, symbol) else { return nil }
        return unsafeBitCast(address, to: type)
    }
}
