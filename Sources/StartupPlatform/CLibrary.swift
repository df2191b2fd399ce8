#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Functions of the C library that its Swift module hides (glibc's is built without `_GNU_SOURCE`), found at
/// run time, so an older C library that lacks one still works: callers fall back when it is `nil`.
package enum CLibrary {
    /// C signature of `fallocate` (`off_t` is 64 bits on the 64-bit platforms this builds for).
    package typealias Fallocate = @convention(c) (Int32, Int32, Int64, Int64) -> Int32

    /// Linux `fallocate`.
    package static let fallocate: Fallocate? = lookUp("fallocate", as: Fallocate.self)

    /// C signature of `renameat2`.
    package typealias Renameat2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32

    /// Linux `renameat2` (glibc 2.28+).
    package static let renameat2: Renameat2? = lookUp("renameat2", as: Renameat2.self)

    /// Finds `symbol` in the global symbol scope and casts it to the C function type `type`.
    package static func lookUp<F>(_ symbol: String, as type: F.Type) -> F? {
        guard let handle = dlopen(nil, RTLD_NOW), let address = dlsym(handle, symbol) else { return nil }
        return unsafeBitCast(address, to: type)
    }
}
