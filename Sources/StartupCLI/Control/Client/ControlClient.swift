#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The client end of the control socket: connects to a run, sends one request and reads its answers.
enum ControlClient {
    /// Why there is no run to talk to.
    enum Unreachable: Error, Equatable {
        /// Nothing answers at the path (no socket, or a stale one).
        case noRun
        /// Something at the path is not safe to talk to; the sentence says why.
        case unsafe(String)
    }

    /// The longest answer line a client reads.
    static let answerLimit = 4 * 1024 * 1024

    /// A socket connected to the run at `path`, whose peer is this user's.
    static func connect(_ path: ControlSocketPath) -> Result<Int32, Unreachable> {
        if let problem = ControlSocketFolder.problem(with: path) { return .failure(.unsafe(problem)) }
        guard case .success(let descriptor) = UnixSocket.connect(to: path.socket) else { return .failure(.noRun) }
        guard let peer = UnixSocket.peerUserID(descriptor), peer == getuid() else {
            close(descriptor)
            return .failure(.unsafe("the socket \(path.socket) belongs to another user's process; not talking to it"))
        }
        return .success(descriptor)
    }

    /// Sends `request` on `descriptor` and calls `answer` with each answer until the final one, which it returns;
    /// `nil` when the run closed the connection before it (or sent what this client cannot read). Blocks.
    static func exchange(_ request: ControlRequest, on descriptor: Int32, deadline: UInt64? = nil, answer: (ControlAnswer) -> Void)
        -> ControlAnswer?
    {
        guard UnixSocket.sendAll(descriptor, request.line.utf8) else { return nil }
        var reader = SocketLineReader(descriptor: descriptor, limit: answerLimit)
        while true {
            guard case .line(let bytes) = reader.next(deadline: deadline) else { return nil }
            guard let parsed = ControlAnswer.parse(bytes) else { continue }
            if parsed.isFinal { return parsed }
            answer(parsed)
        }
    }

    /// The process id of the run at the other end of `descriptor`, as its `hello` says within a second; `nil`
    /// when it does not say.
    static func hello(_ descriptor: Int32) -> Int32? {
        var pid: Int32?
        _ = exchange(.hello, on: descriptor, deadline: SocketLineReader.now() + 1_000_000_000) { answer in
            if case .hello(let id, _, _) = answer { pid = id }
        }
        return pid
    }
}
