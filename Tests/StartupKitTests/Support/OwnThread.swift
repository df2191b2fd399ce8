import Foundation

/// Runs `body` on a thread of its own and returns what it returns: a test that keeps a processor busy for seconds
/// (tens under the thread sanitizer) then leaves Swift's cooperative threads to the other tests, whose runs would
/// otherwise stall behind it on a small machine.
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
