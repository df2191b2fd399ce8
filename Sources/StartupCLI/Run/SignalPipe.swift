import CStartupProcess
import StartupKit
import StartupSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Delivers signals as calls on a thread of its own: a C handler writes each signal's number to a pipe
/// (`startup_forward_signal`), the thread reads the pipe and calls the receiver with how many came. The thread
/// accepts the signals it forwards, so they arrive even when `startup` was started with them blocked (a parent's
/// worker thread blocks most signals, and a child inherits its mask).
///
/// Not a Dispatch signal source: on Linux those read a signalfd in Dispatch's epoll set, and every signal sent to the
/// process wakes every signalfd's reader, whatever signals it reads: the SIGCHLD of each command's exit would wake
/// Dispatch's manager thread, which preempts a running command to find nothing to do.
final class SignalPipe: Sendable {
    /// The signals forwarded: those asked for that were not ignored when the pipe was made (they stay ignored, as
    /// make and the shells leave them: `nohup`, a script's background job).
    let signals: [Int32]
    /// The pipe's write end, the handler's: non-blocking and close-on-exec.
    private let writeEnd: Int32
    /// Who the signals read go to.
    private enum Receiver {
        /// No one yet: the signals are counted, for the first receiver (one sent as `startup` started, blocked,
        /// arrives the moment the pipe's thread accepts it).
        case first(missed: Int)
        /// This function.
        case forwarding(@Sendable (_ count: Int) -> Void)
        /// No one: ``stopForwarding()`` was called, and the signals read are dropped.
        case stopped
    }

    /// Guards who the signals read go to.
    private let receiver = Locked(Receiver.first(missed: 0))

    /// Forwards those of `signals` not ignored now, counting them until ``forward(to:)``. A signal has one handler
    /// per process: make one pipe, once, for a set of signals no other code handles. Exits 71 if there
    /// are no descriptors left (``OutOfResources``), as nothing could be run anyway.
    init(forwarding signals: [Int32]) {
        guard let ends = makeCloseOnExecPipe(nonBlockingWrite: true) else {
            OutOfResources.exit(cannot: "create the pipe for signals", errno: errno)
        }
        writeEnd = ends.write
        let forwarded = signals.filter { startup_forward_signal($0, ends.write) == 1 }
        self.signals = forwarded
        let readEnd = ends.read
        DedicatedThread.run { [receiver] in
            Self.accept(forwarded)
            Self.deliver(from: readEnd, to: receiver)
        }
    }

    /// Sends the signals to `receiver` from now on, on the pipe's thread, replacing any earlier receiver (and
    /// handling them again after ``stopForwarding()``); the first receiver is called at once with those that came
    /// before it.
    func forward(to receiver: @escaping @Sendable (_ count: Int) -> Void) {
        let missed = self.receiver.withLock { current in
            defer { current = .forwarding(receiver) }
            guard case .first(let missed) = current else { return 0 }
            return missed
        }
        for number in signals { _ = startup_forward_signal(number, writeEnd) }
        if missed > 0 { receiver(missed) }
    }

    /// Gives the signals back their default actions; those read from now on are dropped.
    func stopForwarding() {
        for number in signals { signal(number, SIG_DFL) }
        receiver.withLock { $0 = .stopped }
    }

    /// Unblocks `signals` on the calling thread.
    private static func accept(_ signals: [Int32]) {
        var set = sigset_t()
        sigemptyset(&set)
        for number in signals { sigaddset(&set, number) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// The thread's loop: reads what the handler wrote (signals that came together are one call, with their count)
    /// and hands it to the receiver of the moment.
    private static func deliver(from readEnd: Int32, to receiver: Locked<Receiver>) {
        var numbers = [UInt8](repeating: 0, count: 64)
        while true {
            let count = numbers.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if count > 0 {
                let forwarding = receiver.withLock { current -> (@Sendable (_ count: Int) -> Void)? in
                    switch current {
                    case .first(let missed):
                        current = .first(missed: missed + count)
                        return nil
                    case .forwarding(let function):
                        return function
                    case .stopped:
                        return nil
                    }
                }
                forwarding?(count)
            } else if count == 0 || errno != EINTR {
                return
            }
        }
    }
}
