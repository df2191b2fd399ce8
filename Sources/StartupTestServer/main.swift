// A tiny HTTP server for tests and the dev-stack example, so neither needs software the machine may
// lack. One thread, one poll loop: non-blocking accept, each client answered once its request head
// has arrived, clients that connect and leave (a tcp probe) closed without an answer.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let usage = """
    usage: startup-test-server [--port N] [--delay DURATION] [--ready-line TEXT] [--health-status N]
                               [--exit-after DURATION] [--ignore-term] [--term-delay DURATION]
                               [--term-log PATH] [--log-requests] [--ready-time-file PATH]

    Listens on 127.0.0.1 and answers plain HTTP: GET /health with 200 (or --health-status N), GET
    /health-status?code=N with 200 and from then on /health with N, GET /exit?code=N with 200 and
    then exits with N, anything else with 404.

      --port N              the port; 0 (the default) picks a free one and prints "port N" once listening
      --delay DURATION      wait this long before listening, e.g. 200ms or 1.5s
      --ready-line TEXT     print TEXT on standard output once listening
      --health-status N     the status GET /health answers (default 200)
      --exit-after DURATION exit with status 0 this long after listening
      --ignore-term         ignore SIGTERM (only SIGKILL stops it)
      --term-delay DURATION on SIGTERM, exit with status 0 this long after the first one (a server
                            that needs time to stop gently)
      --term-log PATH       append "SIGTERM" to PATH for each SIGTERM received, and "exited" when it
                            exits after one
      --log-requests        print each request's method, target and status, as "GET /health 200"
      --ready-time-file PATH write the wall-clock time taken right after listen() (CLOCK_REALTIME,
                            nanoseconds since 1970, one line) to PATH, for the bench
      --help                print this help

    """

/// Writes `text` to a descriptor at once (no buffering, so a reader sees it as it is printed).
func emit(_ text: String, to descriptor: Int32 = 1) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeMutableBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
        if written > 0 { offset += written } else if written < 0 && errno == EINTR { continue } else { return }
    }
}

func fail(_ message: String) -> Never {
    emit("startup-test-server: \(message)\n", to: 2)
    exit(64)
}

/// Milliseconds of `"200ms"`, `"1.5s"`, `"2m"`.
func milliseconds(_ text: String, option: String) -> Int {
    for (suffix, factor) in [("ms", 1.0), ("s", 1_000.0), ("m", 60_000.0)] where text.hasSuffix(suffix) {
        if let value = Double(text.dropLast(suffix.count)), value >= 0, value < 1e9 { return Int(value * factor) }
    }
    fail("\(option) takes a duration such as 200ms or 1.5s, not \"\(text)\"")
}

func monotonicMilliseconds() -> Int {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int(now.tv_sec) * 1_000 + Int(now.tv_nsec) / 1_000_000
}

/// Nanoseconds since 1970 on the wall clock, comparable across processes.
func realtimeNanoseconds() -> Int {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int(now.tv_sec) * 1_000_000_000 + Int(now.tv_nsec)
}

/// Writes `nanoseconds` and a newline to `path` (created or truncated), or fails with the reason.
func writeReadyTime(_ nanoseconds: Int, to path: String) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { fail("cannot write --ready-time-file \(path): \(String(cString: strerror(errno)))") }
    emit("\(nanoseconds)\n", to: descriptor)
    close(descriptor)
}

// MARK: - Options

var port = 0
var delay = 0
var readyLine: String?
var healthStatus = 200
var exitAfter: Int?
var logsRequests = false
var readyTimeFile: String?
var termDelay: Int?
var termLog: String?
var arguments = CommandLine.arguments.dropFirst()
while let option = arguments.popFirst() {
    func value() -> String {
        guard let value = arguments.popFirst() else { fail("\(option) needs a value") }
        return value
    }
    switch option {
    case "--port":
        guard let number = Int(value()), (0...65_535).contains(number) else { fail("--port takes a number from 0 to 65535") }
        port = number
    case "--delay": delay = milliseconds(value(), option: option)
    case "--ready-line": readyLine = value()
    case "--health-status":
        guard let number = Int(value()), (100...599).contains(number) else { fail("--health-status takes a status from 100 to 599") }
        healthStatus = number
    case "--exit-after": exitAfter = milliseconds(value(), option: option)
    case "--ignore-term": signal(SIGTERM, SIG_IGN)
    case "--term-delay": termDelay = milliseconds(value(), option: option)
    case "--term-log": termLog = value()
    case "--log-requests": logsRequests = true
    case "--ready-time-file": readyTimeFile = value()
    case "--help", "-h":
        emit(usage)
        exit(0)
    default: fail("unknown option \"\(option)\"; see --help")
    }
}
signal(SIGPIPE, SIG_IGN)

// MARK: - SIGTERM, handled in the poll loop

/// The descriptor the SIGTERM handler writes a byte to: a fixed number, since a C handler captures nothing.
let termWriteEnd: Int32 = 200
/// The read end of that pipe, polled with the clients; -1 when SIGTERM keeps its default action.
var termReadEnd: Int32 = -1
if termDelay != nil || termLog != nil {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0, dup2(ends[1], termWriteEnd) == termWriteEnd else { fail("cannot make the SIGTERM pipe") }
    close(ends[1])
    termReadEnd = ends[0]
    for descriptor in [termReadEnd, termWriteEnd] {
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }
    signal(SIGTERM) { _ in
        var byte: UInt8 = 1
        _ = write(200, &byte, 1)
    }
}

/// Appends `line` to the --term-log file, if there is one.
@MainActor func logTerm(_ line: String) {
    guard let termLog else { return }
    let descriptor = open(termLog, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { return }
    emit(line + "\n", to: descriptor)
    close(descriptor)
}

// MARK: - Listening

var remainingDelay = delay
while remainingDelay > 0 {
    let step = min(remainingDelay, 1_000)
    usleep(useconds_t(step * 1_000))
    remainingDelay -= step
}

#if canImport(Glibc)
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
#else
    let listener = socket(AF_INET, SOCK_STREAM, 0)
#endif
guard listener >= 0 else { fail("cannot create a socket: \(String(cString: strerror(errno)))") }
var yes: Int32 = 1
setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
var address = sockaddr_in()
address.sin_family = sa_family_t(AF_INET)
address.sin_port = in_port_t(UInt16(port).bigEndian)
address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
let bound = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
}
guard bound == 0, listen(listener, 128) == 0 else { fail("cannot listen on 127.0.0.1:\(port): \(String(cString: strerror(errno)))") }
// The moment connections are accepted, read before anything else (the file is written before any output, so a
// reader that saw the ready line finds it complete).
let listeningSince = realtimeNanoseconds()
if let readyTimeFile { writeReadyTime(listeningSince, to: readyTimeFile) }
_ = fcntl(listener, F_SETFL, fcntl(listener, F_GETFL) | O_NONBLOCK)
if port == 0 {
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
    }
    emit("port \(UInt16(bigEndian: address.sin_port))\n")
}
if let readyLine { emit(readyLine + "\n") }
var exitDeadline = exitAfter.map { monotonicMilliseconds() + $0 }
/// Whether the deadline is a stop after SIGTERM (logged as "exited" when reached).
var stoppingAfterTerm = false

// MARK: - Serving

/// What has arrived from each client, by descriptor.
var requests: [Int32: [UInt8]] = [:]

@MainActor func respond(to client: Int32, request: [UInt8]) {
    let line = String(decoding: request.prefix { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }, as: UTF8.self)
    let words = line.split(separator: " ")
    let target = words.count > 1 ? String(words[1]) : ""
    var exitCode: Int32?
    let status: Int
    if words.first != "GET" {
        status = 405
    } else if target == "/health" {
        status = healthStatus
    } else if target.hasPrefix("/exit?code="), let code = Int32(target.dropFirst("/exit?code=".count)) {
        status = 200
        exitCode = code
    } else if target.hasPrefix("/health-status?code="), let code = Int(target.dropFirst("/health-status?code=".count)),
        (100...599).contains(code)
    {
        status = 200
        healthStatus = code
    } else {
        status = 404
    }
    if logsRequests { emit("\(words.first ?? "-") \(target) \(status)\n") }
    let body = "\(status)\n"
    let reason =
        [200: "OK", 404: "Not Found", 405: "Method Not Allowed", 500: "Internal Server Error", 503: "Service Unavailable"][status]
        ?? "Status"
    emit("HTTP/1.1 \(status) \(reason)\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)", to: client)
    close(client)
    if let exitCode { exit(exitCode) }
}

while true {
    var descriptors = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
    if termReadEnd >= 0 { descriptors.append(pollfd(fd: termReadEnd, events: Int16(POLLIN), revents: 0)) }
    descriptors += requests.keys.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    let timeout = exitDeadline.map { Int32(max(0, $0 - monotonicMilliseconds())) } ?? -1
    let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
    if let exitDeadline, monotonicMilliseconds() >= exitDeadline {
        if stoppingAfterTerm { logTerm("exited") }
        exit(0)
    }
    if ready <= 0 { continue }
    if termReadEnd >= 0, let term = descriptors.first(where: { $0.fd == termReadEnd }), term.revents != 0 {
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = bytes.withUnsafeMutableBytes { read(termReadEnd, $0.baseAddress!, $0.count) }
        for _ in 0..<max(count, 0) { logTerm("SIGTERM") }
        if count > 0, !stoppingAfterTerm {
            stoppingAfterTerm = true
            exitDeadline = monotonicMilliseconds() + (termDelay ?? 0)
        }
    }
    if descriptors[0].revents != 0 {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { break }
            _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
            requests[client] = []
        }
    }
    for entry in descriptors.dropFirst() where entry.revents != 0 && entry.fd != termReadEnd {
        var chunk = [UInt8](repeating: 0, count: 4_096)
        let count = chunk.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress!, $0.count) }
        if count < 0 && (errno == EAGAIN || errno == EINTR) { continue }
        guard count > 0 else {
            requests[entry.fd] = nil
            close(entry.fd)
            continue
        }
        var request = requests[entry.fd, default: []]
        request += chunk[..<count]
        if request.count > 65_536 || request.firstRange(of: Array("\r\n\r\n".utf8)) != nil {
            requests[entry.fd] = nil
            respond(to: entry.fd, request: request)
        } else {
            requests[entry.fd] = request
        }
    }
}
