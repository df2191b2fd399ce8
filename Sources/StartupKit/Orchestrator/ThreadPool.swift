#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Threads of StartupKit's own (pthreads, not Swift's cooperative pool, which has about one
/// thread per core): the run's blocking commands (``BlockingStartupCommand``) run on one, and
/// async commands that give way to a launch's priority work on another (``BackgroundExecutor``).
///
/// The pool starts with no thread and grows only while work is queued and every thread is busy,
/// up to `maxThreads`, plus one for each piece of work abandoned (``workWasAbandoned()``: its
/// thread is still held until the work returns by itself); a thread that finds nothing to do for
/// `keepAlive` ends. Work is taken in the order it was submitted.
///
/// `@unchecked Sendable`: the queue and the counts below are read and written only while `mutex` is
/// held, which the compiler cannot see; the work itself runs after the mutex is released. A
/// condition variable, which `Locked` does not offer, is what lets an idle thread sleep until work
/// comes or its keep-alive ends.
final class ThreadPool: @unchecked Sendable {
    /// One piece of work, run on a pool thread.
    typealias Work = @Sendable () -> Void

    /// The operating system's priority of a pool's threads.
    enum ThreadPriority: Sendable {
        /// The process's own (on Apple platforms, a blocking command sets its thread's quality of
        /// service from its effective priority).
        case inherited
        /// Below it, for work that gives way: the utility quality of service on Apple platforms.
        /// Unchanged on Linux, where a thread's nice value passes to every thread it starts
        /// (Swift's cooperative pool grows from whichever thread adds work to it) and cannot be
        /// raised back.
        case background
    }

    /// The most threads at once.
    let maxThreads: Int
    private let threadPriority: ThreadPriority
    private let keepAliveNanoseconds: Int64
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let workArrived: UnsafeMutablePointer<pthread_cond_t>

    // Guarded by `mutex`.
    /// Threads allowed beyond `maxThreads`: one per abandoned piece of work, whose thread stays busy.
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
    /// A thread is being started: further threads are started by it, one after another, not by
    /// the submitter (a `pthread_create` costs about 45 µs, and a run's first decision may start
    /// a dozen blocking commands at once).
    private var isStarting = false
    /// Threads counted in `threads` that the thread being started is to start, one by one.
    private var startsHandedOn = 0

    /// Creates an empty pool.
    ///
    /// - Parameters:
    ///   - maxThreads: The most threads at once; at least 1.
    ///   - keepAlive: How long an idle thread waits for work before it ends.
    ///   - threadPriority: The operating system's priority of its threads.
    init(maxThreads: Int, keepAlive: Duration = .milliseconds(100), threadPriority: ThreadPriority = .inherited) {
        precondition(maxThreads > 0, "a thread pool needs at least one thread")
        self.maxThreads = maxThreads
        self.threadPriority = threadPriority
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
            if threads < maxThreads + abandoned {
                threads += 1
                if isStarting { startsHandedOn += 1 }
                startsThread = !isStarting
                isStarting = true
            } else {
                startsThread = false
            }
        }
        unlock()
        if startsThread {
            startThread()
        } else {
            pthread_cond_signal(workArrived)
        }
    }

    /// Work submitted here was abandoned (an attempt after its timeout): its thread stays busy
    /// until the work returns, so one more thread may start for the work handed out in its place.
    func workWasAbandoned() {
        lock()
        abandoned += 1
        unlock()
    }

    /// A pool thread's life: takes work while there is some, sleeps while there is none, and
    /// ends after `keepAlive` without work.
    fileprivate func serve() {
        if threadPriority == .background { lowerCurrentThreadPriority() }
        lock()
        if startsHandedOn > 0 {
            startsHandedOn -= 1
            unlock()
            startThread()  // That thread starts the next, if any.
            lock()
        } else {
            isStarting = false
        }
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
                    pthread_setname_np("StartupKit")
                    Unmanaged<ThreadPool>.fromOpaque(pool).takeRetainedValue().serve()
                    return nil
                }, pool)
        #else
            var thread = pthread_t()
            let result = pthread_create(
                &thread, &attributes,
                { pool in
                    Unmanaged<ThreadPool>.fromOpaque(pool!).takeRetainedValue().serve()
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

    /// Lowers the calling thread's priority (``ThreadPriority/background``).
    private func lowerCurrentThreadPriority() {
        #if canImport(Darwin)
            pthread_set_qos_class_self_np(QOS_CLASS_UTILITY, 0)
        #endif
    }
}
