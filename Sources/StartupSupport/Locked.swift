#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A value shared between tasks and threads, guarded by a lock held only for the duration of one
/// short closure, which must decide and return: never call out (observers, continuations, I/O,
/// the clock) from inside it. Every pthread call's result is checked, as NIOLock does.
///
/// Used where Swift cannot prove an ordering that the program guarantees: a finishing command
/// writes its output from its own task while its dependents read it later from theirs; workers
/// share the scheduler's state machine; a monitor thread hands process exits to tasks.
///
/// `@unchecked Sendable` because every access to `value` happens between the lock and unlock
/// calls below, which the compiler cannot see. It wraps the platform's lock rather than
/// `Synchronization.Mutex`, which needs macOS 15 / iOS 18 (the package supports macOS 13 / iOS 16)
/// and whose contended path the thread sanitizer cannot see on Linux (it reports false races),
/// while it does understand `pthread_mutex_lock`.
///
/// `withLock` is `@inlinable`, as NIOLock's is: the scheduler's state machine is behind one of
/// these on every command's path, and a call across modules would otherwise stay generic.
package final class Locked<Value: Sendable>: @unchecked Sendable {
    @usableFromInline var value: Value
    #if canImport(Darwin)
        @usableFromInline let lock: UnsafeMutablePointer<os_unfair_lock>
    #else
        @usableFromInline let lock: UnsafeMutablePointer<pthread_mutex_t>
    #endif

    /// Creates the lock around an initial value.
    package init(_ value: Value) {
        self.value = value
        lock = .allocate(capacity: 1)
        #if canImport(Darwin)
            lock.initialize(to: os_unfair_lock())
        #else
            lock.initialize(to: pthread_mutex_t())
            // Adaptive (PTHREAD_MUTEX_ADAPTIVE_NP, 3 in glibc): spins briefly before sleeping, as
            // every user holds it only to decide (no I/O, no callouts), a short closure.
            var attributes = pthread_mutexattr_t()
            var result = pthread_mutexattr_init(&attributes)
            precondition(result == 0, "pthread_mutexattr_init failed: \(result)")
            result = pthread_mutexattr_settype(&attributes, 3)
            precondition(result == 0, "pthread_mutexattr_settype failed: \(result)")
            result = pthread_mutex_init(lock, &attributes)
            precondition(result == 0, "pthread_mutex_init failed: \(result)")
            result = pthread_mutexattr_destroy(&attributes)
            precondition(result == 0, "pthread_mutexattr_destroy failed: \(result)")
        #endif
    }

    deinit {
        #if !canImport(Darwin)
            let result = pthread_mutex_destroy(lock)
            precondition(result == 0, "pthread_mutex_destroy failed: \(result)")
        #endif
        lock.deinitialize(count: 1)
        lock.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        #if canImport(Darwin)
            os_unfair_lock_lock(lock)
            defer { os_unfair_lock_unlock(lock) }
        #else
            let locked = pthread_mutex_lock(lock)
            precondition(locked == 0, "pthread_mutex_lock failed: \(locked)")
            defer {
                let unlocked = pthread_mutex_unlock(lock)
                precondition(unlocked == 0, "pthread_mutex_unlock failed: \(unlocked)")
            }
        #endif
        return try body(&value)
    }
}
