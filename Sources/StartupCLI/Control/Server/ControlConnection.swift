import StartupKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One client of the control socket, served on a thread of its own: reads its one request (by a deadline, at
/// most ``ControlProtocol/requestLimit`` bytes), serves it in a task, and writes the answers the task posts until
/// the final one. A client that leaves ends a stream (`logs -f`, `events`); a restart or a stop it asked for runs
/// to its end all the same, its answers dropped.
struct ControlConnection: Sendable {
    /// The accepted socket, owned by this connection's thread.
    let descriptor: Int32
    /// Whether the client's process is the run's own user's; another user's request is read and refused.
    let peerIsOwner: Bool
    /// What serves the request.
    let session: ControlSession
    /// How the server was set up.
    let configuration: ControlServer.Configuration

    /// Serves the client and closes its socket. Blocks: runs on the connection's own thread.
    func serve() {
        defer { close(descriptor) }
        var reader = SocketLineReader(descriptor: descriptor, limit: ControlProtocol.requestLimit)
        let deadline = SocketLineReader.now() + UInt64(configuration.requestTimeout.nanoseconds)
        let request: ControlRequest
        let read = reader.next(deadline: deadline)
        guard peerIsOwner else {
            // Answered after the request is read, so a client that writes first still reads why.
            if read == .closed { return }
            return refuse("refused: this run belongs to user \(getuid()), and only its owner may control it", exit: 77)
        }
        switch read {
        case .closed: return
        case .timedOut:
            return refuse("no request within \(DurationText.format(configuration.requestTimeout)); send one JSON line")
        case .tooLong:
            return refuse("a request is at most \(ControlProtocol.requestLimit / 1024) KiB, one JSON object on one line")
        case .line(let bytes):
            switch ControlRequest.parse(bytes) {
            case .success(let parsed): request = parsed
            case .failure(let error): return refuse(error.message, exit: error.exit)
            }
        }
        if request == .hello {
            // Answered here, without the run: a run starting up asks it to learn whether this one is up.
            let hello = ControlAnswer.hello(pid: getpid(), version: ControlProtocol.version, manifest: session.manifest)
            _ = UnixSocket.sendAll(descriptor, (hello.line + ControlAnswer.ok(true).line).utf8)
            return
        }
        guard let outbox = ControlOutbox(limit: configuration.outboxLimit) else {
            return refuse("the run is out of file descriptors", exit: 71)
        }
        let session = session
        let task = Task.detached {
            await session.serve(request, to: outbox)
            outbox.finish()
        }
        write(answersOf: task, from: outbox, streams: request.isStream)
    }

    /// Writes what `outbox` gets until its final answer. When the client leaves (or does not read), a stream's
    /// task is cancelled; the thread still waits for the task to end, so nothing it posts outlives the outbox.
    private func write(answersOf task: Task<Void, Never>, from outbox: ControlOutbox, streams: Bool) {
        var client = Client.sending
        var scratch = [UInt8](repeating: 0, count: 4_096)
        func leave() {
            if client != .gone, streams { task.cancel() }
            client = .gone
        }
        while true {
            var entries = [
                pollfd(fd: outbox.bell, events: Int16(POLLIN), revents: 0),
                // After the client's end of sending, only its hang-up (reported whatever is asked) is watched.
                pollfd(fd: client == .gone ? -1 : descriptor, events: client == .sending ? Int16(POLLIN) : 0, revents: 0),
            ]
            let ready = poll(&entries, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return task.cancel()
            }
            let events = Int32(entries[1].revents)
            if events & (Int32(POLLHUP) | Int32(POLLERR) | Int32(POLLNVAL)) != 0 {
                leave()
            } else if events & Int32(POLLIN) != 0 {
                // Anything a client sends after its request is ignored; the end of its sending is not its leaving
                // (`socat` shuts its sending down after the request and reads on).
                let count = scratch.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                if count == 0 {
                    client = .listening
                } else if count < 0, errno != EINTR, errno != EAGAIN {
                    leave()
                }
            }
            guard entries[0].revents != 0 else { continue }
            let pending = outbox.take()
            if pending.overflowed {
                // A client that reads nothing while a stream goes on is dropped; a move it asked for runs on.
                leave()
            }
            if client != .gone, !pending.lines.isEmpty, !UnixSocket.sendAll(descriptor, pending.lines.joined().utf8) {
                leave()
            }
            if pending.finished { return }
        }
    }

    /// What is known of the client while its answers are written.
    private enum Client {
        /// It may still send (what it sends is ignored).
        case sending
        /// It has shut its sending down and reads the answers.
        case listening
        /// It left: nothing more is written to it.
        case gone
    }

    /// Answers with an error and changes nothing.
    private func refuse(_ message: String, exit: Int32 = 64) {
        _ = UnixSocket.sendAll(descriptor, ControlAnswer.error(message, exit: exit).line.utf8)
    }
}

extension Duration {
    /// The whole nanoseconds, saturated at `Int64.max`.
    fileprivate var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : scaled.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
    }
}
