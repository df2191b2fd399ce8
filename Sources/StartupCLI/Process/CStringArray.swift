/// The strings of a NULL-terminated `char *[]` (argv, envp), kept in one buffer, each string's bytes copied in
/// one go.
struct CStringArray {
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

    /// An environment array: `NAME=value` for each variable.
    init(environment: [String: String]) {
        bytes.reserveCapacity(environment.count * 48)
        offsets.reserveCapacity(environment.count + 1)
        for (name, value) in environment { append(name, "=", value) }
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
        bytes.withUnsafeBytes { buffer in
            // posix_spawn takes `char *const []` but never writes through it.
            let base = buffer.baseAddress.map { UnsafeMutablePointer(mutating: $0.assumingMemoryBound(to: CChar.self)) }
            return withUnsafeTemporaryAllocation(of: UnsafeMutablePointer<CChar>?.self, capacity: offsets.count + 1) { pointers in
                for (position, offset) in offsets.enumerated() { pointers[position] = base.map { $0 + offset } }
                pointers[offsets.count] = nil
                return body(UnsafePointer(pointers.baseAddress!))
            }
        }
    }
}
