/// Splits a service's output into lines as it arrives, and finds a `log` probe's text in it. A pure value: the
/// reader feeds it bytes and acts on what it returns.
struct ServiceOutputLines {
    /// What the output brought, in order.
    enum Event: Equatable {
        /// A line, without its line ending (`\n` or `\r\n`).
        case line(String)
        /// The probe's text appeared (once): the service is ready.
        case matched
    }

    /// The longest part of a line that is kept; the rest is dropped and the line ends with a note of its length.
    let lineLimit: Int
    /// The `log` probe's text, if any.
    private let needle: [UInt8]?
    /// The kept bytes of the line being read.
    private var current: [UInt8] = []
    /// The whole length of the line being read (longer than `current` when it is cut).
    private var currentLength = 0
    /// The text was found.
    private(set) var hasMatched = false

    /// A splitter keeping at most `lineLimit` bytes of a line, looking for `needle` when given.
    init(lineLimit: Int = 16_384, needle: String? = nil) {
        self.lineLimit = lineLimit
        self.needle = needle.map { Array($0.utf8) }
    }

    /// The events `bytes` bring. The text counts as soon as it is in the line read so far (a prompt without a
    /// line ending is seen at once), so `.matched` comes before the line that holds it.
    ///
    /// - Complexity: O(n) in the bytes, plus the search for the text.
    mutating func append(_ bytes: some Collection<UInt8>) -> [Event] {
        var events: [Event] = []
        var rest = bytes[...]
        while !rest.isEmpty {
            let end = rest.firstIndex(of: UInt8(ascii: "\n"))
            let piece = rest[..<(end ?? rest.endIndex)]
            let searchFrom = max(0, current.count - (needle?.count ?? 0) + 1)
            current += piece.prefix(max(0, lineLimit - current.count))
            currentLength += piece.count
            if !hasMatched, let needle, current[searchFrom...].firstRange(of: needle) != nil {
                hasMatched = true
                events.append(.matched)
            }
            guard let end else { break }
            events.append(.line(takeLine()))
            rest = rest[rest.index(after: end)...]
        }
        return events
    }

    /// The last line when the output ended without a line ending, if there is one.
    mutating func finish() -> String? {
        currentLength == 0 ? nil : takeLine()
    }

    /// The line read so far as text, with a note when it was cut; starts the next line.
    private mutating func takeLine() -> String {
        defer {
            current = []
            currentLength = 0
        }
        if currentLength > lineLimit {
            return String(decoding: current, as: UTF8.self) + "… (line cut at \(lineLimit) of \(currentLength) bytes)"
        }
        if current.last == UInt8(ascii: "\r") { current.removeLast() }
        return String(decoding: current, as: UTF8.self)
    }
}
