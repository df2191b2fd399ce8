#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// How many processors are online: how many parts large, divisible work (decoding a manifest's commands,
/// writing a report) is cut into.
package enum ProcessorCount {
    /// The processors online, at least 1.
    package static let online: Int = max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1)
}
