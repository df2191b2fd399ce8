import StartupKit
import StartupPlatform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Non-portable process functions, resolved at run time with `dlsym`.
///
/// Where children are started with `posix_spawn` (not Linux on x86_64 or arm64, see `ChildSpawn`), `posix_spawn_file_actions_addchdir_np`
/// and `posix_spawn_file_actions_addclosefrom_np` are looked up at run time, which keeps C libraries without them
/// working (callers fall back when `nil`) and avoids availability noise on Darwin, which has `addchdir_np` since
/// macOS 10.15 but no `closefrom_np`. The others are Linux functions the Swift Glibc module hides (it is built without
/// `_GNU_SOURCE`). `pidfd_open` and `pidfd_send_signal` are made through `syscall`, so they work with any glibc (its
/// wrappers only came in 2.36) on any kernel that has them (5.1 and 5.3).
enum SpawnExtensions {
    #if !os(Linux) || !(arch(x86_64) || arch(arm64))
        /// C signature of `posix_spawn_file_actions_addchdir_np`.
        typealias AddChdir = @convention(c) (UnsafeMutablePointer<SpawnFileActions>, UnsafePointer<CChar>) -> Int32
        /// C signature of `posix_spawn_file_actions_addclosefrom_np`.
        typealias AddClosefrom = @convention(c) (UnsafeMutablePointer<SpawnFileActions>, Int32) -> Int32

        /// `posix_spawn_file_actions_addchdir_np`, or `nil` when the C library lacks it.
        static let addChdir: AddChdir? = CLibrary.lookUp("posix_spawn_file_actions_addchdir_np", as: AddChdir.self)

        /// `posix_spawn_file_actions_addclosefrom_np`, or `nil` when the C library lacks it.
        static let addClosefrom: AddClosefrom? = CLibrary.lookUp("posix_spawn_file_actions_addclosefrom_np", as: AddClosefrom.self)
    #endif

    /// C signature of `syscall` with four arguments. The C function is variadic; on x86_64 and arm64 Linux,
    /// integer arguments of a variadic call go in the same registers as fixed ones.
    typealias Syscall = @convention(c) (Int, Int, Int, Int, Int) -> Int

    /// `syscall`, hidden by the Glibc module (it is variadic).
    private static let syscall: Syscall? = CLibrary.lookUp("syscall", as: Syscall.self)

    #if os(Linux) && (arch(x86_64) || arch(arm64))
        /// System call numbers, the same on x86_64 and arm64 (the generic table).
        private static let pidfdOpenNumber = 434
        private static let pidfdSendSignalNumber = 424
    #endif

    /// Linux `pidfd_open(pid, flags)`: a close-on-exec pidfd, or -1 with errno set (ENOSYS before Linux 5.3);
    /// `nil` where it cannot be called.
    static let pidfdOpen: (@Sendable (pid_t, UInt32) -> Int32)? = {
        #if os(Linux) && (arch(x86_64) || arch(arm64))
            guard let syscall else { return nil }
            return { pid, flags in Int32(truncatingIfNeeded: syscall(pidfdOpenNumber, Int(pid), Int(flags), 0, 0)) }
        #else
            return nil
        #endif
    }()

    /// Linux `pidfd_send_signal(pidfd, signal, NULL, 0)`: 0, or -1 with errno set (ESRCH once the process has
    /// exited); `nil` where it cannot be called.
    static let pidfdSendSignal: (@Sendable (Int32, Int32) -> Int32)? = {
        #if os(Linux) && (arch(x86_64) || arch(arm64))
            guard let syscall else { return nil }
            return { pidfd, signal in
                Int32(truncatingIfNeeded: syscall(pidfdSendSignalNumber, Int(pidfd), Int(signal), 0, 0))
            }
        #else
            return nil
        #endif
    }()

    /// `prctl` with its five `unsigned long`-sized arguments (the C function is variadic).
    typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32

    /// Linux `prctl`, hidden by the Glibc module.
    static let prctl: Prctl? = CLibrary.lookUp("prctl", as: Prctl.self)

    /// C signature of `memfd_create`.
    typealias MemfdCreate = @convention(c) (UnsafePointer<CChar>, UInt32) -> Int32

    /// Linux `memfd_create` (glibc 2.27+), hidden by the Glibc module.
    static let memfdCreate: MemfdCreate? = CLibrary.lookUp("memfd_create", as: MemfdCreate.self)

    /// C signature of `signalfd`.
    typealias SignalDescriptor = @convention(c) (Int32, UnsafePointer<sigset_t>, Int32) -> Int32

    /// Linux `signalfd`, hidden by the Glibc module.
    static let signalDescriptor: SignalDescriptor? = CLibrary.lookUp("signalfd", as: SignalDescriptor.self)

    typealias EpollCreate1 = @convention(c) (Int32) -> Int32
    typealias EpollControl = @convention(c) (Int32, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
    typealias EpollWait = @convention(c) (Int32, UnsafeMutableRawPointer?, Int32, Int32) -> Int32

    /// `epoll_create1`, `epoll_ctl` and `epoll_wait` (Linux), hidden by the Glibc module like the above.
    static let epollCreate1: EpollCreate1? = CLibrary.lookUp("epoll_create1", as: EpollCreate1.self)
    static let epollControl: EpollControl? = CLibrary.lookUp("epoll_ctl", as: EpollControl.self)
    static let epollWait: EpollWait? = CLibrary.lookUp("epoll_wait", as: EpollWait.self)
}
