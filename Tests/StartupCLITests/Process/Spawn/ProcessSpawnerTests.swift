import Foundation
import Testing

@testable import StartupCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Tests for `ProcessSpawner.run`: exit statuses, output handling, spawn failures, environment, cancellation.
@Suite struct ProcessSpawnerTests {
    private typealias Support = SpawnTestSupport

    /// Runs `/bin/sh -c script` with the test environment.
    private func sh(
        _ script: String,
        output: OutputDestination = .capture,
        gracePeriod: Duration = .seconds(2),
        exitStrategy: ExitWatcher.Strategy = .automatic
    ) async -> ProcessOutcome {
        await ProcessSpawner.run(
            ProcessSpec(arguments: ["/bin/sh", "-c", script], environment: Support.environment, output: output),
            terminationGracePeriod: gracePeriod, directoryStrategy: .automatic, exitStrategy: exitStrategy)
    }

    /// Starts `script` (made from the path of the FIFO it must publish its pids to, with
    /// `Support.publish`), cancels it once the pids are there, and returns them with the outcome
    /// and how long the cancellation took.
    private func cancelOnceStarted(
        _ script: (_ pidFIFO: String) -> String,
        output: OutputDestination = .discard,
        gracePeriod: Duration = .seconds(2),
        exitStrategy: ExitWatcher.Strategy = .automatic
    ) async throws -> (pids: [pid_t], outcome: ProcessOutcome, cancellationTook: Duration) {
        let directory = try Support.makeTemporaryDirectory()
        defer { Support.remove(directory) }
        let pidFIFO = directory + "/pids"
        try LineReader.makeFIFO(pidFIFO)
        let line = script(pidFIFO)
        let task = Task { await sh(line, output: output, gracePeriod: gracePeriod, exitStrategy: exitStrategy) }
        let pids = await Support.readPids(fromFIFO: pidFIFO)
        let cancelledAt = ContinuousClock.now
        task.cancel()
        let outcome = await task.value
        return (pids, outcome, ContinuousClock.now - cancelledAt)
    }

    // MARK: exit statuses

    /// Exit statuses 0, 3 and 1 come back as `.exited`, with either exit-waiting strategy.
    @Test(arguments: [ExitWatcher.Strategy.automatic, .dedicatedThread])
    func exitCodesAreReported(strategy: ExitWatcher.Strategy) async {
        #expect(await sh("exit 0", exitStrategy: strategy).termination == .exited(0))
        #expect(await sh("exit 3", exitStrategy: strategy).termination == .exited(3))
        let direct = await ProcessSpawner.run(ProcessSpec(arguments: ["false"], environment: Support.environment))
        #expect(direct.termination == .exited(1))
        #expect(!direct.wasTerminated)
    }

    /// A child killed by a signal is reported as `.signaled`, not as a cancellation.
    @Test(arguments: [ExitWatcher.Strategy.automatic, .dedicatedThread])
    func signaledChildIsReported(strategy: ExitWatcher.Strategy) async {
        let outcome = await sh("kill -9 $$", exitStrategy: strategy)
        #expect(outcome.termination == .signaled(SIGKILL))
        #expect(outcome.cancellation == nil)
    }

    #if os(Linux)
        /// The child starts with an empty signal mask and no inherited ignored signals.
        @Test func signalMaskAndIgnoredSignalsAreReset() async throws {
            // Swift programs commonly ignore SIGPIPE, and ignored dispositions survive exec; the child must not see it.
            _ = signal(SIGPIPE, SIG_IGN)
            // Rarer ones too, a realtime signal among them: every disposition is reset, not a chosen few.
            let rarelyIgnored = [SIGVTALRM, SIGPROF, 42]  // 42: SIGRTMIN+8 with glibc
            for rare in rarelyIgnored { _ = signal(rare, SIG_IGN) }
            defer { for rare in rarelyIgnored { _ = signal(rare, SIG_DFL) } }
            let outcome = await ProcessSpawner.run(
                ProcessSpec(
                    arguments: ["grep", "-E", "^Sig(Blk|Ign)", "/proc/self/status"], environment: Support.environment,
                    output: .capture))
            #expect(outcome.termination == .exited(0))
            let masks = Support.text(outcome).split(separator: "\n").compactMap { line in
                line.split(separator: "\t").last.flatMap { UInt64($0, radix: 16) }
            }
            try #require(masks.count == 2)
            // None at all: glibc's posix_spawn leaves its internal signals 32 and 33 ignored (and this test process
            // may have been started so); the child gets them at their default too.
            #expect(masks[0] == 0, "blocked signals")
            #expect(masks[1] == 0, "ignored signals")
        }
    #endif

    // MARK: output

    /// Captured stdout and stderr are interleaved in write order.
    @Test func capturedOutputInterleavesStdoutAndStderr() async {
        let outcome = await sh("echo out1; echo err1 >&2; echo out2; echo err2 1>&2")
        #expect(Support.text(outcome) == "out1\nerr1\nout2\nerr2\n")
        #expect(!outcome.outputTruncated)
    }

    /// Capture keeps the last 64 KiB and flags truncation exactly at the boundary.
    @Test func capturedOutputKeepsOnlyTheLast64KiB() async {
        let big = await sh("head -c 199999 /dev/zero | tr '\\0' a; printf END")
        #expect(big.termination == .exited(0))
        #expect(big.output.count == 65536)
        #expect(big.outputTruncated)
        #expect(big.output.suffix(3) == Array("END".utf8))
        #expect(big.output.dropLast(3).allSatisfy { $0 == UInt8(ascii: "a") })

        let exact = await sh("head -c 65536 /dev/zero | tr '\\0' b")
        #expect(exact.output.count == 65536)
        #expect(!exact.outputTruncated)

        let oneOver = await sh("head -c 65537 /dev/zero | tr '\\0' c")
        #expect(oneOver.output.count == 65536)
        #expect(oneOver.outputTruncated)
    }

    /// `.discard` points stdout and stderr at /dev/null; `.capture` does not.
    @Test func discardSendsOutputToDevNull() async {
        let outcome = await sh("[ /dev/stdout -ef /dev/null ] && [ /dev/stderr -ef /dev/null ]", output: .discard)
        #expect(outcome.termination == .exited(0))
        #expect(outcome.output.isEmpty)
        let captured = await sh("[ /dev/stdout -ef /dev/null ]", output: .capture)
        #expect(captured.termination == .exited(1))
    }

    #if os(Linux)
        /// `.inherit` gives the child our own stdout.
        @Test func inheritWritesToOurStdout() async throws {
            let directory = try Support.makeTemporaryDirectory()
            defer { Support.remove(directory) }
            var ours = stat()
            try #require(fstat(1, &ours) == 0)
            // fd 4 keeps the child's original stdout while `stat`'s own stdout is redirected to the file.
            let outcome = await sh("exec 4>&1; stat -L -c %d:%i /proc/self/fd/4 > '\(directory)/id'", output: .inherit)
            #expect(outcome.termination == .exited(0))
            #expect(outcome.output.isEmpty)
            let theirs = try String(contentsOfFile: directory + "/id", encoding: .utf8)
            #expect(theirs == "\(ours.st_dev):\(ours.st_ino)\n")
        }

        /// Descriptors leaked without O_CLOEXEC by other code are not inherited.
        @Test func strayDescriptorsAreNotInherited() async throws {
            var fds: [Int32] = [0, 0]
            try #require(pipe(&fds) == 0)  // deliberately without O_CLOEXEC
            defer {
                _ = close(fds[0])
                _ = close(fds[1])
            }
            let outcome = await sh("[ -e /proc/self/fd/\(fds[0]) ] || [ -e /proc/self/fd/\(fds[1]) ]")
            #expect(outcome.termination == .exited(1))
        }
    #endif

    /// The child reads stdin from /dev/null and sees EOF at once.
    @Test func stdinIsDevNull() async {
        let outcome = await sh("[ /dev/stdin -ef /dev/null ] && cat && echo eof")
        #expect(outcome.termination == .exited(0))
        #expect(Support.text(outcome) == "eof\n")
    }

    // MARK: spawn failures

    /// A missing program is a `.failedToStart` outcome with a make-like message.
    @Test func missingExecutableFailsToStartWithMessage() async {
        let outcome = await ProcessSpawner.run(
            ProcessSpec(arguments: ["startup-no-such-command-xyz", "a"], environment: Support.environment))
        #expect(
            outcome.termination
                == .failedToStart(
                    errno: ENOENT, message: "cannot run \"startup-no-such-command-xyz\": No such file or directory"))
        let absolute = await ProcessSpawner.run(
            ProcessSpec(arguments: ["/nonexistent/startup-tool"], environment: Support.environment))
        #expect(
            absolute.termination
                == .failedToStart(
                    errno: ENOENT, message: "cannot run \"/nonexistent/startup-tool\": No such file or directory"))
    }

    /// An empty argv is rejected without spawning.
    @Test func emptyArgumentsFailToStart() async {
        let outcome = await ProcessSpawner.run(ProcessSpec(arguments: [], environment: Support.environment))
        guard case .failedToStart(let code, _) = outcome.termination else {
            Issue.record("expected failedToStart, got \(outcome.termination)")
            return
        }
        #expect(code == EINVAL)
    }

    /// A non-executable file found in PATH reports EACCES.
    @Test func nonExecutableFileFailsWithPermissionDenied() async throws {
        let directory = try Support.makeTemporaryDirectory()
        defer { Support.remove(directory) }
        try await Support.writeFile(directory + "/tool", "#!/bin/sh\n", executable: false)
        let outcome = await ProcessSpawner.run(
            ProcessSpec(arguments: ["tool"], environment: ["PATH": directory]))
        #expect(outcome.termination == .failedToStart(errno: EACCES, message: "cannot run \"tool\": Permission denied"))
    }

    /// A missing working directory is reported as such, not as a missing program.
    @Test func missingWorkingDirectoryIsReported() async {
        let outcome = await ProcessSpawner.run(
            ProcessSpec(
                arguments: ["true"], environment: Support.environment, workingDirectory: "/nonexistent/startup-dir"))
        #expect(
            outcome.termination
                == .failedToStart(
                    errno: ENOENT,
                    message: "cannot change directory to \"/nonexistent/startup-dir\": No such file or directory"))
    }

    /// Spawn failures quote the program and the directory as every message does: control characters
    /// escaped, very long values cut with their length.
    @Test func spawnFailureMessages_escapeControlCharacters_andCutLongValues() async {
        let program = await ProcessSpawner.run(
            ProcessSpec(arguments: ["\u{1B}[31mnope\n", "a"], environment: Support.environment))
        #expect(
            program.termination
                == .failedToStart(
                    errno: ENOENT, message: #"cannot run "\u001B[31mnope\n": No such file or directory"#))
        let long = String(repeating: "x", count: 300)
        let directory = await ProcessSpawner.run(
            ProcessSpec(arguments: ["true"], environment: Support.environment, workingDirectory: "/nonexistent/\u{7}" + long))
        #expect(
            directory.termination
                == .failedToStart(
                    errno: ENOENT,
                    message: #"cannot change directory to "/nonexistent/\u0007"# + long.prefix(186)
                        + #"…" (314 characters): No such file or directory"#))
    }

    /// A task cancelled before `run` starts does not spawn anything.
    @Test func cancelledBeforeStartDoesNotSpawn() async {
        let outcome = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await ProcessSpawner.run(ProcessSpec(arguments: ["true"], environment: Support.environment))
        }.value
        guard case .failedToStart(let code, _) = outcome.termination else {
            Issue.record("expected failedToStart, got \(outcome.termination)")
            return
        }
        #expect(code == ECANCELED)
    }

    /// A task cancelled at any moment around its spawn (before a launch thread takes the request, while
    /// `posix_spawn` runs, after the launch is handed over and before the loop takes it in, or after the child
    /// is known) never leaves the child running: a child that was made is killed by the stop at once, and is
    /// gone once `run` returns.
    @Test func cancelledAroundTheSpawn_leavesNothingRunning() async throws {
        let directory = try Support.makeTemporaryDirectory()
        defer { Support.remove(directory) }
        for round in 0..<40 {
            let marker = directory + "/pid-\(round)"
            let task = Task {
                await ProcessSpawner.run(
                    ProcessSpec(arguments: ["/bin/sh", "-c", "echo $$ > \(marker); exec sleep 30"], environment: Support.environment),
                    terminationGracePeriod: .zero)
            }
            for _ in 0..<(round % 8) { await Task.yield() }
            task.cancel()
            let outcome = await task.value
            let cancelledBeforeStart = if case .failedToStart(ECANCELED, _) = outcome.termination { true } else { false }
            // Killed by the stop, not ended by itself 30 s later (a stop that waited for the child's exit).
            try #require(
                (outcome.wasTerminated && outcome.termination == .signaled(SIGKILL)) || cancelledBeforeStart, "round \(round): \(outcome)")
            let written = (try? String(contentsOfFile: marker, encoding: .utf8)) ?? ""
            if let pid = pid_t(written.trimmingCharacters(in: .whitespacesAndNewlines)) {
                #expect(kill(pid, 0) == -1 && errno == ESRCH, "round \(round): the child \(pid) outlived run()")
            }
        }
    }

    #if os(Linux)
        /// A running command's long output is cut to its tail while it runs, not only once it ends, also when it
        /// is the only command (no other child keeps the engine's housekeeping going). The child watches its own
        /// output file's allocated blocks shrink (a bounded wait inside the child), then reports them.
        @Test func aRunningCommandsLongOutput_isTrimmedWhileItRuns() async {
            let blocks = "stat -L -c %b /proc/$$/fd/1"
            let outcome = await sh(
                """
                head -c 3000000 /dev/zero
                i=0
                while [ "$(\(blocks))" -gt 1024 ] && [ $i -lt 3000 ]; do sleep 0.01; i=$((i+1)); done
                echo; echo "blocks $(\(blocks))"
                """)
            #expect(outcome.termination == .exited(0))
            #expect(outcome.outputTruncated)
            let report = Support.text(outcome).split(separator: "\n").last.map(String.init) ?? ""
            let allocated = Int(report.dropFirst("blocks ".count)) ?? .max
            #expect(report.hasPrefix("blocks ") && allocated <= 1024, "512-byte blocks still held: \(report)")
        }
    #endif

    // MARK: working directory, environment, PATH

    /// The working directory is honoured with addchdir_np and with the shell fallback.
    @Test(arguments: [ChildLauncher.DirectoryStrategy.automatic, .shellFallback])
    func workingDirectoryIsHonoured(strategy: ChildLauncher.DirectoryStrategy) async throws {
        let directory = try Support.makeTemporaryDirectory()
        defer { Support.remove(directory) }
        let outcome = await ProcessSpawner.run(
            ProcessSpec(
                arguments: ["pwd", "-P"], environment: Support.environment, workingDirectory: directory,
                output: .capture),
            terminationGracePeriod: .seconds(2), directoryStrategy: strategy)
        #expect(outcome.termination == .exited(0))
        #expect(Support.text(outcome) == directory + "\n")
    }

    /// A relative argv[0] resolves against the working directory.
    @Test(arguments: [ChildLauncher.DirectoryStrategy.automatic, .shellFallback])
    func relativeExecutableResolvesInWorkingDirectory(strategy: ChildLauncher.DirectoryStrategy) async throws {
        let directory = try Support.makeTemporaryDirectory()
        defer { Support.remove(directory) }
        let script = directory + "/hello.sh"
        try await Support.writeFile(script, "#!/bin/sh\necho \"hello $1\"\n", executable: true)
        let outcome = await ProcessSpawner.run(
            ProcessSpec(
                arguments: ["./hello.sh", "a b"], environment: Support.environment, workingDirectory: directory,
                output: .capture),
            terminationGracePeriod: .seconds(2), directoryStrategy: strategy)
        #expect(outcome.termination == .exited(0))
        #expect(Support.text(outcome) == "hello a b\n")
    }

    /// The child sees exactly the given environment and nothing of ours.
    @Test func environmentIsExactlyWhatWasGiven() async throws {
        try #require(ProcessInfo.processInfo.environment["PATH"] != nil)
        let outcome = await ProcessSpawner.run(
            ProcessSpec(
                arguments: ["env"], environment: ["PATH": "/usr/bin:/bin", "STARTUP_TEST_VALUE": "a b=c"],
                output: .capture))
        #expect(outcome.termination == .exited(0))
        let lines = Support.text(outcome).split(separator: "\n").map(String.init).sorted()
        #expect(lines == ["PATH=/usr/bin:/bin", "STARTUP_TEST_VALUE=a b=c"])
    }

    /// A child's own variables are added to the shared ones, or replace them: each name once.
    @Test func ownVariablesReplaceSharedOnes_eachNameOnce() async throws {
        let shared = SharedEnvironment(["PATH": "/usr/bin:/bin", "A": "shared", "B": "shared"])
        let environment = ChildEnvironment(shared: shared, own: ["B": "own", "C": "own"])
        let outcome = await ProcessSpawner.run(ProcessSpec(arguments: ["env"], environment: environment, output: .capture))
        #expect(outcome.termination == .exited(0))
        let lines = Support.text(outcome).split(separator: "\n").map(String.init).sorted()
        #expect(lines == ["A=shared", "B=own", "C=own", "PATH=/usr/bin:/bin"])
        // The shared strings are left as they were for the next child.
        let plain = await ProcessSpawner.run(
            ProcessSpec(arguments: ["env"], environment: ChildEnvironment(shared: shared), output: .capture))
        #expect(Support.text(plain).split(separator: "\n").map(String.init).sorted() == ["A=shared", "B=shared", "PATH=/usr/bin:/bin"])
    }

    /// argv[0] is looked up in the PATH of the child environment, not ours.
    @Test func executableIsLookedUpInTheChildsPath() async throws {
        let directory = try Support.makeTemporaryDirectory()
        defer { Support.remove(directory) }
        try await Support.writeFile(directory + "/startup-private-tool", "#!/bin/sh\necho private\n", executable: true)
        let found = await ProcessSpawner.run(
            ProcessSpec(
                arguments: ["startup-private-tool"], environment: ["PATH": "/nonexistent:" + directory],
                output: .capture))
        #expect(found.termination == .exited(0))
        #expect(Support.text(found) == "private\n")
        let notFound = await ProcessSpawner.run(
            ProcessSpec(arguments: ["startup-private-tool"], environment: Support.environment))
        #expect(notFound.termination.isSuccess == false)
    }

    // MARK: cancellation

    /// Cancelling sends SIGTERM to the whole group, reaps the child and keeps captured output.
    @Test(.timeLimit(.minutes(5)), arguments: [ExitWatcher.Strategy.automatic, .dedicatedThread])
    func cancellationTerminatesTheWholeProcessGroup(strategy: ExitWatcher.Strategy) async throws {
        let (pids, outcome, _) = try await cancelOnceStarted(
            { pidFIFO in
                "echo started; sleep 100 & \(Support.publish("$$ $!", to: pidFIFO)) && sleep 100"
            }, output: .capture, exitStrategy: strategy)
        try #require(pids.count == 2)
        #expect(outcome.termination == .signaled(SIGTERM))
        #expect(outcome.cancellation == .terminate)
        #expect(outcome.wasTerminated)
        #expect(Support.text(outcome) == "started\n")
        #expect(kill(pids[0], 0) == -1 && errno == ESRCH)
        #expect(await ProcessExitWaiter.waitUntilGone(pids[1]))
    }

    /// A group that ignores SIGTERM is SIGKILLed after the grace period.
    @Test(.timeLimit(.minutes(5)), arguments: [ExitWatcher.Strategy.automatic, .dedicatedThread])
    func cancellationEscalatesToSIGKILLAfterGracePeriod(strategy: ExitWatcher.Strategy) async throws {
        let (pids, outcome, cancellationTook) = try await cancelOnceStarted(
            { pidFIFO in
                "trap '' TERM; sleep 100 & \(Support.publish("$$ $!", to: pidFIFO)) && sleep 100"
            }, gracePeriod: .milliseconds(200), exitStrategy: strategy)
        try #require(pids.count == 2)
        #expect(cancellationTook >= .milliseconds(200))
        #expect(outcome.termination == .signaled(SIGKILL))
        #expect(outcome.cancellation == .kill)
        #expect(kill(pids[0], 0) == -1 && errno == ESRCH)
        #expect(await ProcessExitWaiter.waitUntilGone(pids[1]))
    }

    /// A zero grace period sends SIGKILL straight away.
    @Test(.timeLimit(.minutes(5)))
    func zeroGracePeriodKillsImmediately() async throws {
        let (_, outcome, _) = try await cancelOnceStarted(
            { pidFIFO in
                "trap '' TERM; \(Support.publish("$$", to: pidFIFO)) && sleep 100"
            }, gracePeriod: .zero)
        #expect(outcome.termination == .signaled(SIGKILL))
        #expect(outcome.cancellation == .kill)
        // The shell, and its `sleep` once it has started.
        #expect(outcome.kill?.cause == .noGracePeriod && (1...2).contains(outcome.kill?.processes ?? 0))
    }

    /// The grace period is for the whole tree: after a cancelled leader exits, a group member that ignores SIGTERM
    /// keeps the rest of the grace period, and is killed (and counted) when it ends, not when the leader exits.
    @Test(.timeLimit(.minutes(5)))
    func grandchildIgnoringSIGTERMIsKilledWhenTheGraceEnds_notWhenTheLeaderExits() async throws {
        // The background subshell ignores SIGTERM; the leader does not, so it exits long before the grace period.
        let (pids, outcome, cancellationTook) = try await cancelOnceStarted(
            { pidFIFO in
                "(trap '' TERM; exec sleep 100) & \(Support.publish("$$ $!", to: pidFIFO)) && sleep 100"
            }, gracePeriod: .milliseconds(300))
        try #require(pids.count == 2)
        #expect(cancellationTook >= .milliseconds(300), "the member was given the whole grace period")
        #expect(outcome.termination == .signaled(SIGTERM), "the leader's own end")
        #expect(outcome.cancellation == .kill)
        #expect(outcome.kill == ProcessKill(processes: 1, cause: .gracePeriodEnded))
        #expect(await ProcessExitWaiter.waitUntilGone(pids[1]))
    }

    /// A member that ends by itself during the grace period, after the leader, ends the stop then: nothing is killed.
    @Test(.timeLimit(.minutes(5)))
    func grandchildThatEndsWithinTheGrace_endsTheStop_andNothingIsKilled() async throws {
        let (pids, outcome, cancellationTook) = try await cancelOnceStarted(
            { pidFIFO in
                "(trap 'sleep 0.2; exit 0' TERM; sleep 100 & wait) & \(Support.publish("$$ $!", to: pidFIFO)) && sleep 100"
            }, gracePeriod: .seconds(30))
        try #require(pids.count == 2)
        #expect(cancellationTook >= .milliseconds(200) && cancellationTook < .seconds(30))
        #expect(outcome.cancellation == .terminate)
        #expect(outcome.kill == nil)
        #expect(await ProcessExitWaiter.waitUntilGone(pids[1]))
    }

    /// Cancelling also stops a descendant that left the process group with `setsid` (found through
    /// `/proc` before the group is signalled).
    @Test(.timeLimit(.minutes(5)))
    func cancellationStopsDescendantsThatLeftTheProcessGroup() async throws {
        let (pids, outcome, _) = try await cancelOnceStarted({ pidFIFO in
            "setsid sleep 100 & \(Support.publish("$$ $!", to: pidFIFO)) && wait"
        })
        try #require(pids.count == 2)
        defer { _ = kill(pids[1], SIGKILL) }
        #expect(outcome.cancellation != nil)
        #if os(Linux)
            #expect(!Support.isRunningAndUnsignalled(pids[1]), "the setsid descendant was left running")
        #endif
    }

    /// A child that handles SIGTERM and exits keeps its own exit status.
    @Test(.timeLimit(.minutes(5)))
    func childHandlingSIGTERMKeepsItsExitStatus() async throws {
        let (_, outcome, _) = try await cancelOnceStarted({ pidFIFO in
            "trap 'exit 7' TERM; sleep 100 & \(Support.publish("$$", to: pidFIFO)) && wait"
        })
        #expect(outcome.termination == .exited(7))
        #expect(outcome.cancellation == .terminate)
    }

    /// A normal exit leaves deliberately backgrounded processes running.
    @Test(.timeLimit(.minutes(2))) func normalExitLeavesBackgroundProcessesAlone() async throws {
        let directory = try Support.makeTemporaryDirectory()
        defer { Support.remove(directory) }
        let pidFIFO = directory + "/pids"
        try LineReader.makeFIFO(pidFIFO)
        async let published = Support.readPids(fromFIFO: pidFIFO)
        let outcome = await sh("sleep 100 & \(Support.publish("$!", to: pidFIFO))", output: .discard)
        let pids = await published
        #expect(outcome.termination == .exited(0))
        try #require(pids.count == 1)
        #expect(Support.isRunningAndUnsignalled(pids[0]))
        _ = kill(pids[0], SIGKILL)
    }

    /// Waiting for children does not tie up the cooperative thread pool.
    @Test(.timeLimit(.minutes(5)))
    func waitingDoesNotOccupyCooperativeThreads() async throws {
        // More simultaneous waits than cooperative threads. If waiting blocked the pool, nothing (not even the
        // cancellation below) could run until the sleeps ended, so the children would exit 0 instead of being
        // cancelled.
        let directory = try Support.makeTemporaryDirectory()
        defer { Support.remove(directory) }
        let count = 3 * ProcessInfo.processInfo.activeProcessorCount + 2
        for index in 0..<count { try LineReader.makeFIFO("\(directory)/\(index)") }
        let tasks = (0..<count).map { index in
            Task {
                await sh("\(Support.publish("$$", to: "\(directory)/\(index)")) && exec sleep 300", output: .discard)
            }
        }
        for index in 0..<count {
            _ = await Support.readPids(fromFIFO: "\(directory)/\(index)")
        }
        for task in tasks { task.cancel() }
        for task in tasks {
            #expect(await task.value.termination == .signaled(SIGTERM))
        }
    }

    // MARK: throughput

    /// 200 concurrent `true` children all exit 0.
    @Test func manyConcurrentChildrenAllSucceed() async {
        let outcomes = await withTaskGroup(of: ProcessOutcome.self, returning: [ProcessOutcome].self) { group in
            for _ in 0..<200 {
                group.addTask {
                    await ProcessSpawner.run(ProcessSpec(arguments: ["true"], environment: Support.environment))
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.count == 200)
        #expect(outcomes.allSatisfy { $0.termination == .exited(0) })
    }
}
