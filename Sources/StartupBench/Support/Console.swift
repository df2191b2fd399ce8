#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Unbuffered output, so progress shows at once even when stdout is a pipe (as under `make`).
enum Console {
    /// Writes `line` and a newline to standard output in one system call.
    static func line(_ line: String) {
        write(to: 1, line + "\n")
    }

    /// Writes `text` to standard error.
    static func error(_ text: String) {
        write(to: 2, text)
    }

    /// Writes all of `text` to the file descriptor, retrying short writes.
    private static func write(to descriptor: Int32, _ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { buffer in
                #if canImport(Glibc)
                    Glibc.write(descriptor, buffer.baseAddress, buffer.count)
                #else
                    Darwin.write(descriptor, buffer.baseAddress, buffer.count)
                #endif
            }
            if written < 0 {
                guard errno == EINTR else { return }
                continue
            }
            bytes = bytes.dropFirst(written)
        }
    }
}
