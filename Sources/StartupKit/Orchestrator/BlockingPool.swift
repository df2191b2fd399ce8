#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// StartupKit's own threads for blocking commands (``BlockingStartupCommand``), so that they never
/// hold a thread of Swift's cooperative pool, which has about one per core.
///
/// The pool starts with no thread and grows only while work is queued and every thread is busy,
/// up to `maxThreads`, plus one for each attempt abandoned after its timeout (its thread is still
/// held until the work returns by itself); a thread that finds nothing to do for `keepAlive` ends.
/// Work is taken in the order it was submitted: the run's scheduler decides the order (awaited
/// commands first) and hands the pool no more blocking commands than it has threads to spare.
///
/// `@unchecked Sendable`: the queue and the counts below are read and written only while `mutex` is
/// held, which the compiler cannot see; the work itself runs after the mutex is released. A
/// condition variable, which `Locked` does not offer, is what lets an idle thread sleep until work
/// comes or its keep-alive ends.
final class BlockingPool: @unchecked Sendable {
    /// One piece of work, run on a pool thread.
    typealias Work = @Sendable () -> Void

    /// The most threads at once.
    let maxThreads: Int
    private let keepAliveNanoseconds: Int64
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let workArrived: UnsafeMutablePointer<pthread_cond_t>

    // Guarded by `mutex`.
    /// Threads allowed beyond `maxThreads`: one per abandoned attempt, whose thread stays busy.
    private var abandoned = 0
    /// Work not yet taken, from `head` on.
    private var queue: [Work] = []
    private var head = 0
    /// Threads alive.
    private var threads = 0
    /// Idle threads asleep and not yet claimed by a submission.
    private var sleeping = 0
    /// Submissions that claimed a sleeping thread it has not yet woken to.
    private var claims = 0

    /// Creates an empty pool.
    ///
    /// - Parameters:
    ///   - maxThreads: The most threads at once; at least 1.
    ///   - keepAlive: How long an idle thread waits for work before it ends.
    init(maxThreads: Int, keepAlive: Duration = .milliseconds(100)) {
        precondition(maxThreads > 0, "a blocking pool needs at least one thread")
        self.maxThreads = maxThreads
        keepAliveNanoseconds = keepAlive.clampedNanoseconds
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        workArrived = .allocate(capacity: 1)
        workArrived.initialize(to: pthread_cond_t())
        var result = pthread_mutex_init(mutex, nil)
        precondition(result == 0, "pthread_mutex_init failed: \(result)")
        result = pthread_cond_init(workArrived, nil)
        precondition(result == 0, "pthread_cond_init failed: \(result)")
    }

    deinit {
        // Every thread holds the pool while it lives, so none is left here.
        pthread_cond_destroy(workArrived)
        pthread_mutex_destroy(mutex)
        workArrived.deinitialize(count: 1)
        workArrived.deallocate()
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

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

    /// The threads alive now.
    var threadCount: Int {
        lock()
        defer { unlock() }
        return threads
    }

    /// Queues `work`, waking a sleeping thread or starting one if every thread is busy.
    func submit(_ work: @escaping Work) {
        lock()
        queue.append(work)
        let startsThread: Bool
        if sleeping > 0 {
            sleeping -= 1
            claims += 1
            startsThread = false
        } else {
            startsThread = threads < maxThreads + abandoned
            if startsThread { threads += 1 }
        }
        unlock()
        if startsThread {
            startThread()
        } else {
            pthread_cond_signal(workArrived)
        }
    }

    /// An attempt of work submitted here was abandoned after its timeout: its thread stays busy
    /// until the work returns, so one more thread may start for the work the scheduler hands out
    /// in its place.
    func workWasAbandoned() {
        lock()
        abandoned += 1
        unlock()
    }

    /// A pool thread's life: takes work while there is some, sleeps while there is none, and
    /// ends after `keepAlive` without work.
    fileprivate func serve() {
        lock()
        var deadline: timespec?
        while true {
            if head < queue.count {
                let work = queue[head]
                queue[head] = {}
                head += 1
                if head == queue.count {
                    queue.removeAll(keepingCapacity: true)
                    head = 0
                }
                deadline = nil
                unlock()
                work()
                lock()
                continue
            }
            if deadline == nil { deadline = Self.realtime(after: keepAliveNanoseconds) }
            sleeping += 1
            var time = deadline!
            let waited = pthread_cond_timedwait(workArrived, mutex, &time)
            if claims > 0 {
                claims -= 1  // Woken for work, or its claim taken over: either way, not sleeping.
            } else {
                sleeping -= 1
                if waited == ETIMEDOUT, head == queue.count {
                    threads -= 1
                    unlock()
                    return
                }
            }
        }
    }

    private func startThread() {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let pool = Unmanaged.passRetained(self).toOpaque()
        #if canImport(Darwin)
            var thread: pthread_t?
            let result = pthread_create(
                &thread, &attributes,
                { pool in
                    pthread_setname_np("StartupKit blocking")
                    Unmanaged<BlockingPool>.fromOpaque(pool).takeRetainedValue().serve()
                    return nil
                }, pool)
        #else
            var thread = pthread_t()
            let result = pthread_create(
                &thread, &attributes,
                { pool in
                    Unmanaged<BlockingPool>.fromOpaque(pool!).takeRetainedValue().serve()
                    return nil
                }, pool)
        #endif
        precondition(result == 0, "pthread_create failed: \(result)")
    }

    private func lock() {
        let result = pthread_mutex_lock(mutex)
        precondition(result == 0, "pthread_mutex_lock failed: \(result)")
    }

    private func unlock() {
        let result = pthread_mutex_unlock(mutex)
        precondition(result == 0, "pthread_mutex_unlock failed: \(result)")
    }

    /// The real-time clock's reading `nanoseconds` from now, as `pthread_cond_timedwait` takes it.
    private static func realtime(after nanoseconds: Int64) -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let total = Int64(now.tv_nsec) + nanoseconds % 1_000_000_000
        return timespec(
            tv_sec: now.tv_sec + Int(nanoseconds / 1_000_000_000 + total / 1_000_000_000), tv_nsec: Int(total % 1_000_000_000))
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
