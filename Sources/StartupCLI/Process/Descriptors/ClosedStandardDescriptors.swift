#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Standard input, output and error that `startup` was started with closed (`>&-`), held by `/dev/null` opened the
/// other way (input for writing, the outputs for reading): reading or writing them still fails as on a closed one
/// (`EBADF`), for `startup` and for the children that inherit them, but no descriptor of its own (its wait set, a
/// capture file) can take their numbers. One did: `startup`'s own output then failed with "Invalid argument", and a
/// child whose output went to standard error wrote into that descriptor.
package enum ClosedStandardDescriptors {
    /// Holds the closed ones. For the binary: call it first thing, before anything is opened.
    package static func hold() {
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            // The lowest free number, so this one: those below it are open already.
            let held = open("/dev/null", descriptor == 0 ? O_WRONLY : O_RDONLY)
            if held >= 0, held != descriptor {
                _ = dup2(held, descriptor)
                _ = close(held)
            }
        }
    }
}
