/// Builds NULL-terminated `char *[]` arrays (argv, envp) from Swift strings in a single allocation.
enum CStringArray {
    /// Calls `body` with a NULL-terminated array of C strings for `strings`; `nil` if any string contains NUL.
    static func with<R>(
        _ strings: [String],
        _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R
    ) -> R? {
        var bytes: [CChar] = []
        bytes.reserveCapacity(strings.reduce(0) { $0 + $1.utf8.count + 1 })
        var offsets: [Int] = []
        offsets.reserveCapacity(strings.count)
        for string in strings {
            offsets.append(bytes.count)
            for byte in string.utf8 {
                if byte == 0 { return nil }
                bytes.append(CChar(bitPattern: byte))
            }
            bytes.append(0)
        }
        return bytes.withUnsafeMutableBufferPointer { buffer in
            var pointers: [UnsafeMutablePointer<CChar>?] = []
            pointers.reserveCapacity(offsets.count + 1)
            if let base = buffer.baseAddress {
                for offset in offsets { pointers.append(base + offset) }
            }
            pointers.append(nil)
            return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
        }
    }
}
