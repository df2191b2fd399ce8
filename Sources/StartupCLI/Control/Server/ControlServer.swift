import Dispatch
import StartupKit
import StartupSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The control socket of a run that stays up: listens on ``ControlSocketPath`` for `startup ps`, `restart`,
/// `stop`, `start`, `logs`, `down` and `events`, and serves each client on a thread of its own against the run's
/// ``ControlTarget``. Only the run's own user is served: the socket has mode 0600 from the start (it is bound in
/// a fresh 0700 folder, then renamed into place), and each peer's user id is checked. One run per manifest: the
/// run holds a lock beside the socket, which the kernel releases however the run ends.
///
/// Start it with ``start(manifest:target:environment:configuration:)`` before the first command starts (it
/// throws ``ControlServerError/Code/alreadyUp`` when a run of the manifest is up), and ``close()`` it when the run
/// ends.
package final class ControlServer: Sendable {
    /// How a server behaves; the defaults are the CLI's.
    package struct Configuration: Sendable {
        /// How long a client has to send its request after it connects.
        package var requestTimeout = Duration.seconds(5)
        /// How long a write to a client may wait for it to read before it is dropped.
        package var sendTimeout = Duration.seconds(10)
        /// The most answer bytes that may wait for a client that does not read (a stream) before it is dropped.
        package var outboxLimit = 8 * 1024 * 1024
        /// The most clients served at once (each has a thread); one more is closed at once.
        package var maximumClients = 256

        /// The defaults.
        package init() {}
    }

    /// Where the server listens.
    package let path: ControlSocketPath
    /// What `close()` must undo, once.
    private struct Held: Sendable {
        /// The lock file, locked (`flock`); -1 once released.
        var lock: Int32
        /// The device and inode of the socket file this server made, to remove it only while it is still ours.
        var socketFile: (device: UInt64, inode: UInt64)?
        /// The write end of the pipe that stops the accepting thread; -1 once it is told.
        var stop: Int32
    }

    /// The read end of that pipe, closed only when the server goes: the accepting thread may end first (a failed
    /// `poll`), and a write to a pipe nobody can read would raise SIGPIPE.
    private let stopRead: Int32

    /// Guards what `close()` undoes.
    private let held: Locked<Held>
    /// Entered for each client from its acceptance until its last answer is written.
    private let clients = DispatchGroup()

    private init(path: ControlSocketPath, held: Held, stopRead: Int32) {
        self.path = path
        self.held = Locked(held)
        self.stopRead = stopRead
    }

    /// Listens for the run of `manifest` (as the user gave `--file`), at ``ControlSocketPath/forManifest(_:environment:)``.
    ///
    /// - Throws: ``ControlServerError``: ``ControlServerError/Code/alreadyUp`` when a run of the manifest is up
    ///   (its message is the line to print, exit 1); ``ControlServerError/Code/cannotListen`` when the socket
    ///   cannot be made.
    package static func start(
        manifest: String, target: any ControlTarget, environment: [String: String], configuration: Configuration = Configuration()
    ) async throws(ControlServerError) -> ControlServer {
        try await start(
            at: ControlSocketPath.forManifest(manifest, environment: environment), manifest: manifest, target: target,
            configuration: configuration)
    }

    /// Listens at `path` for the run of `manifest` (for messages). The file system calls, and the question to a
    /// run that may be up (at most a second), are made on a thread of their own.
    package static func start(
        at path: ControlSocketPath, manifest: String, target: any ControlTarget, configuration: Configuration = Configuration()
    ) async throws(ControlServerError) -> ControlServer {
        let started = await DedicatedThread.result { () -> Result<ControlServer, ControlServerError> in
            do throws(ControlServerError) {
                return .success(try startBlocking(at: path, manifest: manifest, target: target, configuration: configuration))
            } catch {
                return .failure(error)
            }
        }
        return try started.get()
    }

    /// ``start(at:manifest:target:configuration:)``, blocking the calling thread.
    private static func startBlocking(
        at path: ControlSocketPath, manifest: String, target: any ControlTarget, configuration: Configuration
    ) throws(ControlServerError) -> ControlServer {
        try ControlSocketFolder.make(path)
        let lock = try Self.lock(path, manifest: manifest)
        do throws(ControlServerError) {
            // A socket that answers while the lock was free belongs to a run that lost its lock file: still up.
            if case .success(let descriptor) = UnixSocket.connect(to: path.socket) {
                let pid = ControlClient.hello(descriptor)
                _ = closeDescriptor(descriptor)
                throw ControlServerError.alreadyUp(manifest, pid: pid)
            }
            let (listener, socketFile) = try Self.listen(at: path)
            guard let stop = makeCloseOnExecPipe() else {
                let failure = errno
                _ = closeDescriptor(listener)
                if let socketFile, identity(of: path.socket).map({ $0 == socketFile }) == true { unlink(path.socket) }
                throw ControlServerError.cannotListen("make a pipe for", path.socket, Errno(failure))
            }
            let server = ControlServer(path: path, held: Held(lock: lock, socketFile: socketFile, stop: stop.write), stopRead: stop.read)
            let session = ControlSession(target: target, manifest: manifest)
            let clients = server.clients
            DedicatedThread.run {
                Self.accept(on: listener, until: stop.read, session: session, configuration: configuration, clients: clients)
            }
            return server
        } catch {
            _ = closeDescriptor(lock)
            throw error
        }
    }

    /// Stops listening and removes the socket, if it is still the one this server made; releases the lock.
    /// Clients being served go on until their answers end (a stream ends when the run's streams finish).
    /// Calling it again does nothing.
    package func close() {
        let undo = held.withLock { held -> Held in
            let undo = held
            held = Held(lock: -1, socketFile: nil, stop: -1)
            return undo
        }
        if let file = undo.socketFile, let now = Self.identity(of: path.socket), now == file { unlink(path.socket) }
        if undo.stop >= 0 {
            var byte: UInt8 = 0
            _ = write(undo.stop, &byte, 1)
            _ = closeDescriptor(undo.stop)
        }
        if undo.lock >= 0 { _ = closeDescriptor(undo.lock) }
    }

    /// Waits until every client being served has had its last answer written, at most `limit`: the run calls it
    /// after ``close()`` and after finishing its streams (logs followed, events), before it exits, so that `startup
    /// down` reads the final answer (exit 0, or 1 if a stop failed) rather than the end of the connection.
    package func answersWritten(within limit: Duration) async {
        let clients = clients
        let deadline = DispatchTime.after(limit)
        _ = await DedicatedThread.result { clients.wait(timeout: deadline) }
    }

    deinit {
        close()
        _ = closeDescriptor(stopRead)
    }

    /// Opens and locks the lock file, writing this process's id into it.
    private static func lock(_ path: ControlSocketPath, manifest: String) throws(ControlServerError) -> Int32 {
        let descriptor = open(path.lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw .cannotListen("open the lock", path.lock, Errno(errno)) }
        var result: Int32
        repeat { result = flock(descriptor, LOCK_EX | LOCK_NB) } while result != 0 && errno == EINTR
        guard result == 0 else {
            let failure = errno
            defer { _ = closeDescriptor(descriptor) }
            guard failure == EWOULDBLOCK else { throw .cannotListen("lock", path.lock, Errno(failure)) }
            throw .alreadyUp(manifest, pid: holder(of: descriptor, socket: path.socket))
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        return descriptor
    }

    /// The process id of the run holding the lock: as its socket says, else as its lock file says.
    private static func holder(of lock: Int32, socket: String) -> Int32? {
        if case .success(let descriptor) = UnixSocket.connect(to: socket) {
            defer { _ = closeDescriptor(descriptor) }
            if let pid = ControlClient.hello(descriptor) { return pid }
        }
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = bytes.withUnsafeMutableBytes { pread(lock, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Int32(String(decoding: bytes[..<count].prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self))
    }

    /// Binds a socket in a fresh folder of mode 0700 beside the final path, gives it mode 0600, listens, and
    /// renames it into place (replacing a stale socket): no moment where another user could reach it.
    private static func listen(at path: ControlSocketPath) throws(ControlServerError) -> (Int32, (device: UInt64, inode: UInt64)?) {
        var template = Array((path.folder + "/.bind-XXXXXX").utf8CString)
        let bindFolder: String? = template.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress, mkdtemp(base) != nil else { return nil }
            return String(cString: base)
        }
        guard let bindFolder else { throw .cannotListen("make a folder in", path.folder, Errno(errno)) }
        let bound = bindFolder + "/s"
        defer {
            unlink(bound)
            rmdir(bindFolder)
        }
        let listener = UnixSocket.make()
        guard listener >= 0 else { throw .cannotListen("make a socket for", path.socket, Errno(errno)) }
        let result = UnixSocket.withAddress(bound) { address, length in bind(listener, address, length) } ?? -1
        guard result == 0, chmod(bound, 0o600) == 0, systemListen(listener, 64) == 0 else {
            let failure = errno
            _ = closeDescriptor(listener)
            throw .cannotListen("listen on", path.socket, Errno(failure))
        }
        let identity = identity(of: bound)
        guard rename(bound, path.socket) == 0 else {
            let failure = errno
            _ = closeDescriptor(listener)
            throw .cannotListen("put the socket in place at", path.socket, Errno(failure))
        }
        return (listener, identity)
    }

    /// The device and inode of the file at `path` (not followed), or `nil`.
    private static func identity(of path: String) -> (device: UInt64, inode: UInt64)? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return (UInt64(info.st_dev), UInt64(info.st_ino))
    }

    /// Accepts clients until a byte arrives on `stop`, each served on a thread of its own; then closes `listener`
    /// (`stop` is the server's to close). Runs on its own thread.
    private static func accept(
        on listener: Int32, until stop: Int32, session: ControlSession, configuration: Configuration, clients: DispatchGroup
    ) {
        defer { _ = closeDescriptor(listener) }
        let owner = getuid()
        /// Guards how many clients are being served.
        let served = Locked(0)
        while true {
            var entries = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0), pollfd(fd: stop, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&entries, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if entries[1].revents != 0 { return }
            guard entries[0].revents != 0 else { continue }
            let client = acceptClient(listener)
            guard client >= 0 else {
                // Out of descriptors, the listener stays readable: wait a moment (or for the stop) rather than spin.
                if errno == EMFILE || errno == ENFILE {
                    var stopEntry = pollfd(fd: stop, events: Int16(POLLIN), revents: 0)
                    if poll(&stopEntry, 1, 100) > 0 { return }
                }
                continue
            }
            let (seconds, attoseconds) = max(configuration.sendTimeout, .microseconds(1)).components
            var timeout = timeval(tv_sec: Int(seconds), tv_usec: .init(attoseconds / 1_000_000_000_000))
            _ = setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let connection = ControlConnection(
                descriptor: client, peerIsOwner: UnixSocket.peerUserID(client) == owner, session: session, configuration: configuration)
            let admitted = served.withLock { count -> Bool in
                guard count < configuration.maximumClients else { return false }
                count += 1
                return true
            }
            guard admitted else {
                _ = closeDescriptor(client)
                continue
            }
            clients.enter()
            DedicatedThread.run {
                connection.serve()
                served.withLock { $0 -= 1 }
                clients.leave()
            }
        }
    }

    /// An accepted client, close-on-exec, or -1. (Children are started with every descriptor above 2 closed, so
    /// the moment before close-on-exec is set leaks it to none.)
    private static func acceptClient(_ listener: Int32) -> Int32 {
        #if canImport(Glibc)
            let client = Glibc.accept(listener, nil, nil)
        #else
            let client = Darwin.accept(listener, nil, nil)
        #endif
        guard client >= 0 else { return -1 }
        _ = fcntl(client, F_SETFD, FD_CLOEXEC)
        #if canImport(Darwin)
            UnixSocket.noSignal(client)
        #endif
        return client
    }
}

/// `listen(2)`, named apart from ``ControlServer``'s own.
private func systemListen(_ descriptor: Int32, _ backlog: Int32) -> Int32 {
    #if canImport(Glibc)
        Glibc.listen(descriptor, backlog)
    #else
        Darwin.listen(descriptor, backlog)
    #endif
}
