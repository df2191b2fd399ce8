#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few calls on Unix domain stream sockets the control socket needs, with the differences between Linux
/// and Darwin kept here: close-on-exec sockets, sends that never raise SIGPIPE, the peer's user id.
enum UnixSocket {
    /// A close-on-exec, blocking Unix stream socket that raises no SIGPIPE (Darwin: `SO_NOSIGPIPE`; Linux sends
    /// with `MSG_NOSIGNAL`), or -1 with `errno` set.
    static func make() -> Int32 {
        #if canImport(Glibc)
            return socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
            let descriptor = socket(AF_UNIX, SOCK_STREAM, 0)
            guard descriptor >= 0 else { return -1 }
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            noSignal(descriptor)
            return descriptor
        #endif
    }

    #if canImport(Darwin)
        /// Sets `SO_NOSIGPIPE`, which an accepted socket does not inherit.
        static func noSignal(_ descriptor: Int32) {
            var on: Int32 = 1
            _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        }
    #endif

    /// Calls `body` with the address of `path`; `nil` when the path does not fit an address.
    static func withAddress<Result>(
        _ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result
    ) -> Result? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count <= ControlSocketPath.longestPath, !bytes.contains(0) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    /// A socket connected to `path`, or `nil` with the `errno` of the failure (`ENOENT` or `ECONNREFUSED`:
    /// nobody listens).
    static func connect(to path: String) -> Result<Int32, Errno> {
        let descriptor = make()
        guard descriptor >= 0 else { return .failure(Errno(errno)) }
        var result: Int32 = -1
        repeat {
            result =
                withAddress(path) { address, length in systemConnect(descriptor, address, length) }
                ?? {
                    errno = ENAMETOOLONG
                    return -1
                }()
        } while result != 0 && errno == EINTR
        guard result == 0 else {
            let failure = errno
            close(descriptor)
            return .failure(Errno(failure))
        }
        return .success(descriptor)
    }

    /// Sends all of `bytes`, waiting while the peer's buffer is full; false when the peer is gone.
    static func sendAll(_ descriptor: Int32, _ bytes: some Collection<UInt8>) -> Bool {
        let array = Array(bytes)
        return array.withUnsafeBytes { buffer in
            guard let start = buffer.baseAddress else { return true }
            var offset = 0
            while offset < buffer.count {
                #if canImport(Glibc)
                    let sent = send(descriptor, start + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                #else
                    let sent = send(descriptor, start + offset, buffer.count - offset, 0)
                #endif
                if sent < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += sent
            }
            return true
        }
    }

    /// The user id of the process at the other end of the connected socket, or `nil` if the system does not say.
    static func peerUserID(_ descriptor: Int32) -> uid_t? {
        #if canImport(Glibc)
            // struct ucred { pid_t pid; uid_t uid; gid_t gid; }, which Glibc's Swift module does not export.
            var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
            var length = socklen_t(MemoryLayout<(Int32, UInt32, UInt32)>.size)
            guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
            return credentials.uid
        #else
            var user: uid_t = 0
            var group: gid_t = 0
            guard getpeereid(descriptor, &user, &group) == 0 else { return nil }
            return user
        #endif
    }

    /// `connect(2)`, named apart from ``connect(to:)``.
    private static func systemConnect(_ socket: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        #if canImport(Glibc)
            Glibc.connect(socket, address, length)
        #else
            Darwin.connect(socket, address, length)
        #endif
    }
}

/// An `errno` value, as the failure of a ``Result``.
struct Errno: Error, Equatable {
    /// The value.
    let code: Int32

    /// Wraps `code`.
    init(_ code: Int32) {
        self.code = code
    }

    /// The system's sentence for it.
    var message: String { errnoDescription(code) }
}
