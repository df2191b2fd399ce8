#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// This process's environment variables, read straight from the C library's `environ`.
package enum ProcessEnvironment {
    /// Every variable by name; of a name set twice, the first, as `getenv` reads it. An entry
    /// without `=` is skipped.
    package static func current() -> [String: String] {
        #if canImport(Darwin)
            guard var entry = _NSGetEnviron().pointee else { return [:] }
        #else
            guard var entry = environ as UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? else { return [:] }
        #endif
        var variables: [String: String] = [:]
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                let name = String(text[..<equals])
                if variables[name] == nil { variables[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return variables
    }
}
