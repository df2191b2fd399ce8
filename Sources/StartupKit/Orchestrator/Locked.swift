#if canImport(Darwin)
import Darwin
#else
import Synchronization
#endif

/// A value shared between tasks, guarded by a lock held only for the duration of one short
/// closure.
///
/// Used for command outputs, which a finishing command writes from its own task while other
/// commands read those of their dependencies from theirs; Swift cannot prove that a dependency's
/// write always happens before its dependents' reads, so a lock says it.
#if canImport(Darwin)
// `Mutex` needs macOS 15 / iOS 18; the package supports macOS 13 / iOS 16, so Darwin uses
// `os_unfair_lock`. The class is `@unchecked Sendable` because every access to `value` happens
// between `os_unfair_lock_lock` and `os_unfair_lock_unlock` below, which the compiler cannot see.
package final class Locked<Value: Sendable>: @unchecked Sendable {
    private var value: Value
    private let lock: UnsafeMutablePointer<os_unfair_lock>

    /// Creates the lock around an initial value.
    package init(_ value: Value) {
        self.value = value
        self.lock = .allocate(capacity: 1)
        self.lock.initialize(to: os_unfair_lock())
    }

    deinit {
        lock.deinitialize(count: 1)
        lock.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        os_unfair_lock_lock(lock)
        defer { os_unfair_lock_unlock(lock) }
        return try body(&value)
    }
}
#else
package final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    /// Creates the lock around an initial value.
    package init(_ value: sending Value) {
        self.mutex = Mutex(value)
    }

    /// Runs `body` with exclusive access to the value.
    package func withLock<Result: Sendable>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try mutex.withLock { value in try body(&value) }
    }
}
#endif
