import Dispatch
import StartupKit
import StartupSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One attempt of a `tcp` or `http` probe, on non-blocking sockets: nothing blocks a thread for long, and the
/// socket is closed however the attempt ends (success, refusal, time-out, cancellation).
enum NetworkProbe {
    /// One address `getaddrinfo` gave.
    struct Address: Sendable {
        let family: Int32
        let bytes: [UInt8]
    }

    /// What an attempt saw when it did not succeed: `connection refused`, `answered 404`, ...
    struct Failure: Error, Sendable {
        /// What was seen, for the message of a probe that timed out.
        let description: String
    }

    /// Whether a connection to `host:port` is accepted within `limit`.
    static func connects(host: String, port: Int, limit: Duration) async -> Bool {
        await tryConnect(host: host, port: port, limit: limit) == nil
    }

    /// A connection to `host:port` within `limit`: `nil` when accepted, else what was seen.
    static func tryConnect(host: String, port: Int, limit: Duration) async -> Failure? {
        switch await connect(host: host, port: port, deadline: ContinuousClock.now + limit, limit: limit) {
        case .success(let socket):
            _ = closeDescriptor(socket)
            return nil
        case .failure(let failure):
            return failure
        }
    }

    /// `GET path` within `limit` (plain HTTP/1.1, `Connection: close`): `nil` when answered with a 2xx or 3xx
    /// status, else what was seen (another status, no answer, the connection's error).
    static func tryGet(host: String, port: Int, path: String, limit: Duration) async -> Failure? {
        let deadline = ContinuousClock.now + limit
        let socket: Int32
        switch await connect(host: host, port: port, deadline: deadline, limit: limit) {
        case .success(let connected): socket = connected
        case .failure(let failure): return failure
        }
        defer { _ = closeDescriptor(socket) }
        let authority = (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
        let request = Array("GET \(path) HTTP/1.1\r\nHost: \(authority)\r\nUser-Agent: startup\r\nConnection: close\r\n\r\n".utf8)
        guard await sendAll(request, on: socket, deadline: deadline) else { return Failure(description: "the request could not be sent") }
        guard let status = await statusCode(on: socket, deadline: deadline) else {
            return Failure(description: "no HTTP status line within \(DurationText.format(limit))")
        }
        return (200..<400).contains(status) ? nil : Failure(description: "answered \(status)")
    }

    /// A connected socket to the first address of `host:port` that accepts, or what the last one tried said.
    private static func connect(
        host: String, port: Int, deadline: ContinuousClock.Instant, limit: Duration
    ) async -> Result<Int32, Failure> {
        let addresses = await resolve(host: host, port: port)
        guard !addresses.isEmpty else { return .failure(Failure(description: "cannot resolve \(MessageQuoting.quoted(host))")) }
        var last = Failure(description: "no connection")
        for address in addresses {
            if Task.isCancelled { return .failure(last) }
            switch await connect(to: address, deadline: deadline, limit: limit) {
            case .success(let socket): return .success(socket)
            case .failure(let failure): last = failure
            }
        }
        return .failure(last)
    }

    private static func connect(to address: Address, deadline: ContinuousClock.Instant, limit: Duration) async -> Result<Int32, Failure> {
        let socket = openSocket(family: address.family)
        guard socket >= 0 else { return .failure(Failure(description: "cannot open a socket: \(errnoDescription(errno))")) }
        let result = address.bytes.withUnsafeBytes { bytes in
            connectSocket(socket, bytes.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(bytes.count))
        }
        if result == 0 { return .success(socket) }
        var code = errno
        if code == EINPROGRESS {
            if await SocketWait.wait(socket, until: .writable, limit: ContinuousClock.now.duration(to: deadline)) {
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                code = getsockopt(socket, SOL_SOCKET, SO_ERROR, &error, &length) == 0 ? error : errno
                if code == 0 { return .success(socket) }
            } else {
                _ = closeDescriptor(socket)
                return .failure(Failure(description: "no connection within \(DurationText.format(limit))"))
            }
        }
        _ = closeDescriptor(socket)
        return .failure(Failure(description: code == ECONNREFUSED ? "connection refused" : errnoDescription(code)))
    }

    /// Writes all of `bytes`, waiting for room when the socket is full.
    private static func sendAll(_ bytes: [UInt8], on socket: Int32, deadline: ContinuousClock.Instant) async -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { sendWithoutSignal(socket, $0.baseAddress! + offset, $0.count - offset) }
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else if written < 0 && errno == EAGAIN {
                guard await SocketWait.wait(socket, until: .writable, limit: ContinuousClock.now.duration(to: deadline)) else {
                    return false
                }
            } else {
                return false
            }
        }
        return true
    }

    /// The status of the answer's first line (`HTTP/1.1 204 No Content`), or `nil`.
    private static func statusCode(on socket: Int32, deadline: ContinuousClock.Instant) async -> Int? {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 512)
        while !received.contains(UInt8(ascii: "\n")), received.count < 4_096 {
            let count = chunk.withUnsafeMutableBytes { read(socket, $0.baseAddress!, $0.count) }
            if count > 0 {
                received += chunk[..<count]
            } else if count < 0 && errno == EINTR {
                continue
            } else if count < 0 && errno == EAGAIN {
                guard await SocketWait.wait(socket, until: .readable, limit: ContinuousClock.now.duration(to: deadline)) else { return nil }
            } else {
                break
            }
        }
        let words = String(decoding: received.prefix { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }, as: UTF8.self)
            .split(separator: " ")
        guard words.count >= 2, words[0].hasPrefix("HTTP/"), words[1].count == 3 else { return nil }
        return Int(words[1])
    }

    /// The addresses of `host:port`: an IP address at once, a name through `getaddrinfo` on a Dispatch thread
    /// (a look-up may wait on the network).
    static func resolve(host: String, port: Int) async -> [Address] {
        if let numeric = lookUp(host: host, port: port, numericOnly: true) { return numeric }
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: lookUp(host: host, port: port, numericOnly: false) ?? [])
            }
        }
    }

    /// `getaddrinfo` for TCP; `nil` when it fails.
    private static func lookUp(host: String, port: Int, numericOnly: Bool) -> [Address]? {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_flags = AI_NUMERICSERV | (numericOnly ? AI_NUMERICHOST : 0)
        #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else { return nil }
        defer { freeaddrinfo(first) }
        var addresses: [Address] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            if let address = current.pointee.ai_addr {
                let bytes = Array(UnsafeRawBufferPointer(start: address, count: Int(current.pointee.ai_addrlen)))
                addresses.append(Address(family: current.pointee.ai_family, bytes: bytes))
            }
            entry = current.pointee.ai_next
        }
        return addresses
    }

    /// A non-blocking, close-on-exec stream socket, or -1.
    private static func openSocket(family: Int32) -> Int32 {
        #if canImport(Glibc)
            return socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
            let descriptor = socket(family, SOCK_STREAM, 0)
            guard descriptor >= 0 else { return -1 }
            var noSignal: Int32 = 1
            _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &noSignal, socklen_t(MemoryLayout<Int32>.size))
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            return descriptor
        #endif
    }

    /// `send(2)` that never raises SIGPIPE (Darwin sockets carry `SO_NOSIGPIPE` instead).
    private static func sendWithoutSignal(_ socket: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.send(socket, bytes, count, Int32(MSG_NOSIGNAL))
        #else
            Darwin.send(socket, bytes, count, 0)
        #endif
    }

    /// `connect(2)`, named apart from the probe's own `connect`.
    private static func connectSocket(_ socket: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        #if canImport(Glibc)
            Glibc.connect(socket, address, length)
        #else
            Darwin.connect(socket, address, length)
        #endif
    }
}
