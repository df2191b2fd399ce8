/// A NULL-terminated `char *[]` (argv, envp) built from Swift strings into one buffer, copying
/// each string's bytes in one go.
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

    /// An environment array: `NAME=value` for each variable, then `extra` if given.
    init(environment: [String: String], adding extra: String?) {
        bytes.reserveCapacity(environment.count * 48)
        offsets.reserveCapacity(environment.count + 1)
        for (name, value) in environment {
            offsets.append(bytes.count)
            copy(name)
            bytes.append(UInt8(ascii: "="))
            copy(value)
            bytes.append(0)
        }
        if let extra { append(extra) }
    }

    /// Adds `string`.
    private mutating func append(_ string: String) {
        offsets.append(bytes.count)
        copy(string)
        bytes.append(0)
    }

    /// Copies the bytes of `string`, noting an embedded NUL.
    private mutating func copy(_ string: String) {
        let start = bytes.count
        bytes.append(contentsOf: string.utf8)
        if !hasEmbeddedNul, bytes[start...].contains(0) { hasEmbeddedNul = true }
    }

    /// Calls `body` with the NULL-terminated array of C strings.
    mutating func withPointers<R>(_ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
        let offsets = offsets
        return bytes.withUnsafeMutableBytes { buffer in
            let base = buffer.baseAddress?.assumingMemoryBound(to: CChar.self)
            return withUnsafeTemporaryAllocation(of: UnsafeMutablePointer<CChar>?.self, capacity: offsets.count + 1) { pointers in
                for (position, offset) in offsets.enumerated() { pointers[position] = base.map { $0 + offset } }
                pointers[offsets.count] = nil
                return body(UnsafePointer(pointers.baseAddress!))
            }
        }
    }
}
