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
    /// The last bytes of the line read so far, one fewer than the text has, whether kept or cut: the text is
    /// looked for in them followed by what arrives, so it is found however long the line is and however the
    /// output is split into chunks.
    private var searchTail: [UInt8] = []
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
    /// line ending is seen at once), so `.matched` comes before the line that holds it. It is found anywhere in a
    /// line of any length: the part of a line past `lineLimit` is not kept, but it is searched.
    ///
    /// - Complexity: O(n) in the bytes, plus the search for the text.
    mutating func append(_ bytes: some Collection<UInt8>) -> [Event] {
        var events: [Event] = []
        var rest = bytes[...]
        while !rest.isEmpty {
            let end = rest.firstIndex(of: UInt8(ascii: "\n"))
            let piece = rest[..<(end ?? rest.endIndex)]
            current += piece.prefix(max(0, lineLimit - current.count))
            currentLength += piece.count
            if !hasMatched, let needle, search(for: needle, in: piece) {
                hasMatched = true
                events.append(.matched)
            }
            guard let end else { break }
            events.append(.line(takeLine()))
            rest = rest[rest.index(after: end)...]
        }
        return events
    }

    /// Whether `needle` ends in `piece`, the line's next bytes, or starts in the bytes before it; keeps the last
    /// bytes for the next piece of the same line.
    private mutating func search(for needle: [UInt8], in piece: some Collection<UInt8>) -> Bool {
        let haystack = searchTail + piece
        if haystack.firstRange(of: needle) != nil { return true }
        searchTail = Array(haystack.suffix(max(0, needle.count - 1)))
        return false
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
            searchTail = []
        }
        if currentLength > lineLimit {
            return String(decoding: current, as: UTF8.self) + "… (line cut at \(lineLimit) of \(currentLength) bytes)"
        }
        if current.last == UInt8(ascii: "\r") { current.removeLast() }
        return String(decoding: current, as: UTF8.self)
    }
}
