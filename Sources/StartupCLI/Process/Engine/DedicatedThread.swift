import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a blocking closure on its own detached OS thread, so blocking never occupies Swift's cooperative pool.
enum DedicatedThread {
    /// Default stack size: enough for threads that only make a few syscalls and resume a continuation.
    static let smallStack = 256 * 1024

    /// The closure handed to the new thread through its `void *` argument.
    private final class Body: Sendable {
        /// The work to run on the thread.
        let run: @Sendable () -> Void

        /// Wraps `run`.
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Starts `body` on a new detached thread with `stackSize` bytes of stack (falling back to a Dispatch worker if
    /// thread creation fails).
    static func run(stackSize: Int = smallStack, _ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        pthread_attr_setstacksize(&attributes, stackSize)
        #if canImport(Darwin)
            var thread: pthread_t? = nil
        #else
            var thread = pthread_t()
        #endif
        let result = pthread_create(
            &thread, &attributes,
            { argument in
                Unmanaged<Body>.fromOpaque(DedicatedThread.nonNull(argument)).takeRetainedValue().run()
                return nil
            }, context)
        if result != 0 {
            // Out of threads: a Dispatch worker still keeps the cooperative pool free.
            let body = Unmanaged<Body>.fromOpaque(context).takeRetainedValue()
            DispatchQueue.global().async { body.run() }
        }
    }

    /// Unwraps the thread argument, whose optionality differs between glibc and Darwin.
    private static func nonNull(_ pointer: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer {
        pointer!
    }
}

extension DedicatedThread {
    /// What `body` returns, computed on a thread of its own: blocking calls (a socket's reads) never occupy the
    /// cooperative pool while the caller waits.
    static func result<Value: Sendable>(stackSize: Int = smallStack, of body: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            run(stackSize: stackSize) { continuation.resume(returning: body()) }
        }
    }
}
