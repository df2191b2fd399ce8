/// The strings of a NULL-terminated `char *[]` (argv, envp), kept in one buffer, each string's bytes copied in
/// one go.
struct CStringArray: Sendable {
    /// The strings, each followed by a NUL byte.
    private var bytes: [UInt8] = []
    /// Where each string starts in `bytes`.
    private var offsets: [Int] = []
    /// Some string had a NUL byte of its own: it cannot be passed to C.
    private(set) var hasEmbeddedNul = false

    /// An array of `strings`.
    init(_ strings: [String]) {
        for string in strings { append(string) }
    }

    /// Adds one string made of `parts`.
    mutating func append(_ parts: String...) {
        offsets.append(bytes.count)
        let start = bytes.count
        for part in parts { bytes.append(contentsOf: part.utf8) }
        if !hasEmbeddedNul, bytes[start...].contains(0) { hasEmbeddedNul = true }
        bytes.append(0)
    }

    /// Calls `body` with the NULL-terminated array of C strings.
    func withPointers<R>(_ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
        withAddresses { addresses in
            withUnsafeTemporaryAllocation(of: UnsafeMutablePointer<CChar>?.self, capacity: addresses.count + 1) { pointers in
                for (position, address) in addresses.enumerated() { pointers[position] = address }
                pointers[addresses.count] = nil
                return body(UnsafePointer(pointers.baseAddress!))
            }
        }
    }

    /// Calls `body` with the address of each string, valid only during the call.
    func withAddresses<R>(_ body: (LazyMapCollection<[Int], UnsafeMutablePointer<CChar>>) -> R) -> R {
        bytes.withUnsafeBytes { buffer in
            // The spawn takes `char *const []` but never writes through it. There is a base address whenever there
            // is a string to point at.
            body(offsets.lazy.map { UnsafeMutablePointer(mutating: buffer.baseAddress!.assumingMemoryBound(to: CChar.self)) + $0 })
        }
    }
}
