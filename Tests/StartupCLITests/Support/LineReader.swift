import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a line from a pipe or a FIFO on a thread of its own, so a test waits for a child's word (or for every
/// writer to close) without polling and without blocking the cooperative pool.
enum LineReader {
    /// Reads up to the first newline (not included) or the end of input, then closes `descriptor` if `closes`.
    static func readLine(from descriptor: Int32, closes: Bool) async -> String {
        await onThread {
            defer { if closes { _ = close(descriptor) } }
            return line(from: descriptor)
        }
    }

    /// Reads whole lines up to and including the first that contains `marker` (or to the end of input when no line
    /// does or `marker` is `nil`), then closes `descriptor` if `closes`.
    static func readLines(from descriptor: Int32, through marker: String?, closes: Bool) async -> String {
        await onThread {
            defer { if closes { _ = close(descriptor) } }
            var text = ""
            while true {
                let (line, ended) = lineAndEnd(from: descriptor)
                text += ended ? line : line + "\n"
                if ended || marker.map(line.contains) == true { return text }
            }
        }
    }

    /// Opens the FIFO at `path` for reading (waiting for a writer), reads its first line and closes it. A reader
    /// left waiting for a writer is released by `release(fifo:)`.
    static func readLine(fromFIFO path: String) async -> String {
        await onThread {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return "" }
            defer { _ = close(descriptor) }
            return line(from: descriptor)
        }
    }

    /// Opens the FIFO at `path` for reading and writing, so that it never reads the end while writers come and go,
    /// reads `count` lines (many writers may each write one) and closes it.
    static func readLines(_ count: Int, fromFIFO path: String) async -> [String] {
        let text = await onThread {
            let descriptor = open(path, O_RDWR | O_CLOEXEC)
            guard descriptor >= 0 else { return "" }
            defer { _ = close(descriptor) }
            return (0..<count).map { _ in line(from: descriptor) }.joined(separator: "\n")
        }
        return text.split(separator: "\n").map(String.init)
    }

    /// Opens the FIFO at `path` for writing (waiting for a reader: a test that fails with none waits for its time
    /// limit), writes `line` and a newline, and closes it.
    static func writeLine(_ line: String, toFIFO path: String) async {
        _ = await onThread {
            let descriptor = open(path, O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return "" }
            defer { _ = close(descriptor) }
            let bytes = Array((line + "\n").utf8)
            _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            return ""
        }
    }

    /// Creates a FIFO at `path`.
    static func makeFIFO(_ path: String) throws {
        guard mkfifo(path, 0o600) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    /// Lets a reader still waiting in `readLine(fromFIFO:)` go with an empty line (cleanup after a failure).
    static func release(fifo path: String) {
        let descriptor = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        if descriptor >= 0 { _ = close(descriptor) }
    }

    /// Blocking read, byte by byte so nothing past the line is consumed.
    private static func line(from descriptor: Int32) -> String {
        lineAndEnd(from: descriptor).line
    }

    /// The next line (without its newline) and whether the input ended instead of a newline.
    private static func lineAndEnd(from descriptor: Int32) -> (line: String, ended: Bool) {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(descriptor, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return (String(decoding: bytes, as: UTF8.self), true) }
            if byte == UInt8(ascii: "\n") { return (String(decoding: bytes, as: UTF8.self), false) }
            bytes.append(byte)
        }
    }

    /// Runs `body` on a new thread and returns its result.
    private static func onThread(_ body: @escaping @Sendable () -> String) async -> String {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }
}
