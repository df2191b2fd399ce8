#if canImport(Darwin)
    import Darwin
#endif

/// Running blocking commands (``BlockingStartupCommand``) on a run's pool. The run's scheduler
/// decides the order (awaited commands first) and hands the pool no more blocking commands than
/// it has threads to spare.
extension ThreadPool {
    /// Runs a blocking command's `body` for `context` on a pool thread
    /// (``submit(_:for:then:)``) and returns its result; the calling task is suspended
    /// meanwhile, holding no thread. `body` cannot be interrupted: cancelling the calling task
    /// does not end it.
    func perform(_ body: @escaping @Sendable (StartupContext) throws -> any Sendable, for context: StartupContext) async throws
        -> any Sendable
    {
        // Checked: resumed from a thread of the pool's own, which the thread sanitizer follows
        // through a checked continuation (with an unsafe one it reported the task's frame raced).
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<any Sendable, any Error>) in
            submit(body, for: context) { continuation.resume(with: $0) }
        }
    }

    /// Queues a blocking command's `body` for `context`, to run on a pool thread at the quality
    /// of service of the command's effective priority (on Apple platforms; ignored elsewhere),
    /// and hands `completion` how it ended, on that thread.
    func submit(
        _ body: @escaping @Sendable (StartupContext) throws -> any Sendable, for context: StartupContext,
        then completion: @escaping @Sendable (Result<any Sendable, any Error>) -> Void
    ) {
        #if canImport(Darwin)
            let priority = context.plan.storage.readyKeys[context.index].effectivePriority
            submit {
                pthread_set_qos_class_self_np(Self.qualityOfService(for: priority), 0)
                completion(Result { try body(context) })
            }
        #else
            submit { completion(Result { try body(context) }) }
        #endif
    }

    #if canImport(Darwin)
        /// The quality of service of a command's effective priority.
        private static func qualityOfService(for priority: CommandPriority) -> qos_class_t {
            if priority > .normal { return QOS_CLASS_USER_INITIATED }
            if priority < .normal { return QOS_CLASS_UTILITY }
            return QOS_CLASS_DEFAULT
        }
    #endif
}
