#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Where async commands run that give way to a launch's priority work (``Job/givesWay``): threads
/// of StartupKit's own, one per processor at most, shared by every run of the process (on Apple
/// platforms at the utility quality of service).
///
/// Swift's cooperative pool has about one thread per processor and never preempts a job. While
/// CPU-bound commands hold every one of its threads, a command of the first screen's chain whose
/// `Task.sleep` ends, or whose continuation is resumed, waits for one of them to be free
/// (measured: a 5 ms sleep ending at 7-14 ms behind four 7 ms CPU-bound commands on two cores).
/// Run here instead, the commands that give way leave the cooperative pool to the chain, whose
/// threads the operating system then shares the processors with.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class BackgroundExecutor: TaskExecutor {
    /// The process's one.
    static let shared = BackgroundExecutor()

    private let threads: ThreadPool

    private init() {
        let processors = sysconf(Int32(_SC_NPROCESSORS_ONLN))
        threads = ThreadPool(maxThreads: max(1, processors), threadPriority: .background)
    }

    /// Whether the calling task may give way here: it prefers no executor (a run whose tasks
    /// prefer one, as the CLI's do its process engine, keeps its commands there), or this one.
    static var acceptsCurrentTask: Bool {
        withUnsafeCurrentTask { task in
            guard let preferred = task?.unownedTaskExecutor else { return true }
            return preferred == shared.asUnownedTaskExecutor()
        }
    }

    /// Runs `job` on one of the threads.
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        threads.submit { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
