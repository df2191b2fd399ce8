/// The last bytes of a logged command's output, kept in memory as it is read, for what a capture file gives an unlogged
/// command: the last ``CaptureFile/tailLimit`` bytes, and whether earlier ones were dropped.
struct OutputTail: Sendable {
    /// The most bytes kept.
    let limit: Int
    /// The kept bytes: the last `limit` of them, and up to `limit` more before them, dropped in one go.
    private var kept: [UInt8] = []
    /// Whether more than `limit` bytes came.
    private(set) var isTruncated = false

    /// An empty tail keeping `limit` bytes.
    init(limit: Int = CaptureFile.tailLimit) {
        self.limit = limit
    }

    /// Adds bytes that came.
    ///
    /// - Complexity: O(`bytes.count`), amortised: each byte is copied a bounded number of times.
    mutating func append(_ bytes: some Collection<UInt8>) {
        kept.append(contentsOf: bytes)
        guard kept.count > limit else { return }
        isTruncated = true
        if kept.count > 2 * limit { kept.removeFirst(kept.count - limit) }
    }

    /// The last `limit` bytes (all of them when fewer came).
    var bytes: [UInt8] { Array(kept.suffix(limit)) }
}
