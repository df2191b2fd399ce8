import Foundation
import Testing

@testable import StartupCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// End-to-end: the built binary stops its children whatever ends the run (SIGHUP, a closed standard output, a
/// timeout, a second interrupt), including descendants that left their process group, and leaves alone what a
/// command started on purpose before it exited. Children report their pids through a FIFO the test reads.
@Suite struct ProcessReliabilityTests {
    private typealias Support = SpawnTestSupport

    /// A manifest folder with a FIFO named `ready` the commands write their pids to.
    private func folder(_ manifest: String) throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", manifest)
        try LineReader.makeFIFO(folder.file("ready"))
        return folder
    }

    /// The pids a command wrote to the folder's FIFO.
    private func readyPids(in folder: TemporaryDirectory) async -> [pid_t] {
        await Support.readPids(fromFIFO: folder.file("ready"))
    }

    /// Starts `startup run` with `arguments` in `folder`, its output piped, and returns once its commands have written
    /// their pids to the FIFO and it has printed `marker` (the run is held: services running, or `--keep-running`).
    /// The signals named in `signals` are ignored when it starts.
    /// The caller cleans up the pids and the error file.
    private func startHeldRun(
        _ arguments: [String], in folder: TemporaryDirectory, until marker: String, ignoring signals: [String] = []
    ) async throws -> (running: StartupBinary.PipedRunning, pids: [pid_t]) {
        let running = try StartupBinary.startWithPipedOutput(
            ["run", "--no-report"] + arguments, in: folder.path, ignoring: signals)
        let pids = await readyPids(in: folder)
        let shown = await LineReader.readLines(from: running.output, through: marker, closes: false)
        try #require(shown.contains(marker), "the run was not held: \(shown)")
        return (running, pids)
    }

    /// SIGKILLs what a failed test may have left, and lets a FIFO reader go.
    private func cleanUp(_ pids: [pid_t], _ folder: TemporaryDirectory) {
        for pid in pids { _ = kill(pid, SIGKILL) }
        LineReader.release(fifo: folder.file("ready"))
    }

    /// Started from a terminal, `startup` accepts SIGINT; started by a program's worker thread (as `Process` does
    /// from a task here), it may start with SIGINT blocked. Either way an interrupt stops the run. The command
    /// records `startup`'s signal mask, then interrupts it.
    @Test(.timeLimit(.minutes(1)), arguments: [false, true])
    func anInterrupt_stopsTheRun_whetherStartupStartedWithItBlockedOrNot(blocked: Bool) async throws {
        let folder = try TemporaryDirectory()
        try folder.write(
            "commands.json",
            #"""
            {"version": 1, "commands": [{"id": "interrupter",
              "run": "awk '/^SigBlk/ {print $2}' /proc/$PPID/status > mask; kill -INT $PPID; exec sleep 30"}]}
            """#)
        let status: Int32
        if blocked {
            status = try await StartupBinary.run(["run", "--no-report"], in: folder.path).status
        } else {
            // The engine starts its children with no signal blocked.
            let outcome = await ProcessSpawner.run(
                ProcessSpec(
                    arguments: [StartupBinary.path, "run", "--no-report"], environment: SpawnTestSupport.environment,
                    workingDirectory: folder.path, output: .discard))
            guard case .exited(let code) = outcome.termination else {
                Issue.record("startup did not exit: \(outcome.termination)")
                return
            }
            status = code
        }
        let recorded = try String(contentsOfFile: folder.file("mask"), encoding: .utf8)
        let mask = try UInt64(#require(recorded.split(separator: "\n").first), radix: 16)
        #expect(mask.map { $0 >> (SIGINT - 1) & 1 == 1 } == blocked, "the case did not start startup as it says")
        #expect(status == 130)
    }

    /// An interrupt sent as `startup` starts, with SIGINT blocked (as `Process` starts it from a task here), waits
    /// in the kernel until the signal pipe's thread accepts it, which may be before anyone receives what the pipe
    /// reads: it must not be lost then. Each try would otherwise wait for its command's `sleep`.
    @Test(.timeLimit(.minutes(3)))
    func anInterruptSentAsStartupStarts_withItBlocked_stopsTheRun() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("commands.json", #"{"version": 1, "commands": [{"id": "long", "run": "exec sleep 5"}]}"#)
        for _ in 0..<20 {
            let running = try StartupBinary.start(["run", "--no-report"], in: folder.path)
            kill(running.pid, SIGINT)
            #expect(await running.finish().status == 130)
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func sighup_stopsTheRunLikeCtrlC_printsAndSavesTheReport_writesTheTrace_exits130() async throws {
        let folder = try folder(
            #"""
            {"version": 1, "commands": [{"id": "server", "run": "echo $$ > ready; exec sleep 100"}]}
            """#)
        let running = try StartupBinary.start(["run", "--trace"], in: folder.path)
        let pids = await readyPids(in: folder)
        defer { cleanUp(pids, folder) }
        try #require(pids.count == 1)
        kill(running.pid, SIGHUP)
        let result = await running.finish()
        #expect(result.status == 130)
        #expect(result.output.contains("Interrupted in "))
        #expect(result.output.contains("Report saved to"))
        #expect(FileManager.default.fileExists(atPath: folder.file(".startup/last-run.json")))
        #expect(FileManager.default.fileExists(atPath: folder.file(".startup/trace.json")))
        #expect(kill(pids[0], 0) == -1 && errno == ESRCH, "the command was left running")
    }

    @Test(.timeLimit(.minutes(2)))
    func closedStandardOutput_stopsTheRunQuietly_savesTheReport_exits141() async throws {
        // `first` prints a line at once; `server` runs until stopped; `gate` finishes once the test has closed
        // the pipe (its `cat` waits for the test to open the FIFO), so startup's next write meets EPIPE, unless
        // startup saw the reader leave first (then `cat` is stopped, and the FIFO has no reader to wait for).
        let folder = try folder(
            #"""
            {"version": 1, "commands": [
              {"id": "first", "run": "true"},
              {"id": "server", "run": "echo $$ > ready; exec sleep 100"},
              {"id": "gate", "run": "cat gate"}
            ]}
            """#)
        try LineReader.makeFIFO(folder.file("gate"))
        let running = try StartupBinary.startWithPipedOutput(["run", "-j", "3"], in: folder.path)
        defer { try? FileManager.default.removeItem(atPath: running.errorFile) }
        let pids = await readyPids(in: folder)
        defer { cleanUp(pids, folder) }
        try #require(pids.count == 1)
        let firstLine = await LineReader.readLine(from: running.output, closes: true)
        #expect(firstLine.contains("first"))
        let gate = open(folder.file("gate"), O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        if gate >= 0 { _ = close(gate) }
        let status = await running.exit.value()
        #expect(status == 141)
        #expect(await !running.exit.diedOfSignal(), "startup died of a signal")
        #expect((try? String(contentsOfFile: running.errorFile, encoding: .utf8)) == "")
        #expect(FileManager.default.fileExists(atPath: folder.file(".startup/last-run.json")))
        #expect(kill(pids[0], 0) == -1 && errno == ESRCH, "the command was left running")
    }

    /// `startup run --keep-running | head -1`: once the run is held nothing more is printed, so no write meets EPIPE;
    /// the reader leaving must stop the run all the same. It used to stay up until killed (when its output had all
    /// gone into the pipe before the reader left).
    @Test(.timeLimit(.minutes(1)))
    func closedStandardOutput_whileTheRunIsHeld_stopsTheServices_exits141() async throws {
        let folder = try folder(
            #"""
            {"version": 1, "commands": [{"id": "service", "ready": {"log": "up"},
              "run": "echo $$ > ready; echo up; exec sleep 100"}]}
            """#)
        let (running, pids) = try await startHeldRun(["--keep-running"], in: folder, until: "Services running")
        defer { try? FileManager.default.removeItem(atPath: running.errorFile) }
        defer { cleanUp(pids, folder) }
        try #require(pids.count == 1)
        _ = close(running.output)
        #expect(await running.exit.value() == 141)
        #expect(kill(pids[0], 0) == -1 && errno == ESRCH, "the service was left running")
    }

    /// The reader leaves as the start-up ends, ten times: an interrupt routed to the start-up then, with nothing
    /// left to cancel, used to be lost, and the held run stayed up (14 of 20 tries in a review). And after a service
    /// printed 20,000 lines: each write used to wrap the close action in more reabstraction thunks, until calling it
    /// overflowed the stack (exit 139, the service left running).
    @Test(.timeLimit(.minutes(3)), arguments: [0, 20_000])
    func closedStandardOutput_asTheStartUpEnds_stopsTheHeldRun_exits141(linesPrinted: Int) async throws {
        let folder = try folder(
            """
            {"version": 1, "commands": [{"id": "service", "ready": {"log": "up"},
              "run": "echo $$ > ready; i=0; while [ $i -lt \(linesPrinted) ]; do echo line; i=$((i+1)); done; echo up; exec sleep 30"}]}
            """)
        for _ in 0..<(linesPrinted == 0 ? 10 : 1) {
            let running = try StartupBinary.startWithPipedOutput(["run", "--no-report", "--keep-running"], in: folder.path)
            defer { try? FileManager.default.removeItem(atPath: running.errorFile) }
            let pids = await readyPids(in: folder)
            defer { cleanUp(pids, folder) }
            if linesPrinted > 0 {
                _ = await LineReader.readLines(from: running.output, through: "service | up", closes: true)
            } else {
                _ = await LineReader.readLine(from: running.output, closes: true)
            }
            // A try that stays up ends when its service does: the test stops at the first failure.
            try #require(await running.exit.value() == 141)
            #expect(pids.allSatisfy { kill($0, 0) == -1 && errno == ESRCH }, "the service was left running")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func timeout_killsDescendantsThatLeftTheProcessGroup_evenOrphanedOnes() async throws {
        // One `setsid` child of the command's shell, and one orphaned by a subshell that exited (adopted by
        // startup as the child subreaper). Both left the command's process group and session.
        let folder = try folder(
            #"""
            {"version": 1, "commands": [{"id": "server", "timeout": "3s",
              "run": "(setsid sleep 100 & echo $! > adopted); setsid sleep 100 & echo \"$$ $! $(cat adopted)\" > ready; exec sleep 100"}]}
            """#)
        let running = try StartupBinary.start(["run"], in: folder.path)
        let pids = await readyPids(in: folder)
        defer { cleanUp(pids, folder) }
        try #require(pids.count == 3)
        let result = await running.finish()
        #expect(result.status == 1)
        #expect(result.output.contains("timed out"))
        #expect(kill(pids[0], 0) == -1 && errno == ESRCH, "the command was left running")
        #expect(!Support.isRunningAndUnsignalled(pids[1]), "the setsid child of the command was left running")
        #expect(!Support.isRunningAndUnsignalled(pids[2]), "the orphaned setsid descendant was left running")
    }

    @Test(.timeLimit(.minutes(2)))
    func timeout_ofAChildThatIgnoresSIGTERM_killsItAfterTheGracePeriod_beforeStartupExits() async throws {
        // Nothing else runs: the command is abandoned 100 ms after its timeout and the run ends while its child is in
        // its grace period. startup used to exit then, and the child was left running.
        let folder = try folder(
            #"""
            {"version": 1, "commands": [{"id": "stubborn", "timeout": "1s",
              "run": "trap '' TERM; echo $$ > ready; exec sleep 100"}]}
            """#)
        let running = try StartupBinary.start(["run", "--grace-period", "1s"], in: folder.path)
        let pids = await readyPids(in: folder)
        defer { cleanUp(pids, folder) }
        try #require(pids.count == 1)
        let result = await running.finish()
        #expect(result.status == 1)
        #expect(result.output.contains("timed out after 1s"))
        #expect(kill(pids[0], 0) == -1 && errno == ESRCH, "the command was left running")
    }

    @Test(.timeLimit(.minutes(1)))
    func finalWait_saysWhatItWaitsFor_andAFirstInterruptThenKillsAtOnce_exits130() async throws {
        // The run ends while its timed-out command is in a grace period far longer than the time limit: startup
        // says it waits, and an interrupt then (the run's first) ends the wait with SIGKILL, and the run as an
        // interrupt (it used to exit 1, the failed run's status).
        let folder = try folder(
            #"""
            {"version": 1, "commands": [{"id": "stubborn", "timeout": "200ms",
              "run": "trap '' TERM; echo $$ > ready; exec sleep 100"}]}
            """#)
        let running = try StartupBinary.startWithPipedOutput(
            ["run", "--no-report", "--grace-period", "300s"], in: folder.path, mergingErrors: true)
        defer { try? FileManager.default.removeItem(atPath: running.errorFile) }
        let pids = await readyPids(in: folder)
        defer { cleanUp(pids, folder) }
        try #require(pids.count == 1)
        let shown = await LineReader.readLines(from: running.output, through: "waiting for", closes: false)
        try #require(
            shown.contains("startup: waiting for what 1 command the run gave up on left running (SIGKILL in "),
            "no word of the final wait: \(shown)")
        #expect(shown.contains("or at once on Ctrl-C)"))
        kill(running.process.processIdentifier, SIGINT)
        _ = await LineReader.readLines(from: running.output, through: nil, closes: true)
        #expect(await running.exit.value() == 130)
        #expect(kill(pids[0], 0) == -1 && errno == ESRCH, "the command was left running")
    }

    /// What a held run printed after its second interrupt, its exit status, and which of its processes outlived it.
    private struct TwiceInterrupted {
        let rest: String
        let status: Int32?
        let leftRunning: [pid_t]
    }

    /// Holds the run of `manifest`, whose service writes its pid to the FIFO `ready` and, once its stop is under way
    /// (its stop line started, or SIGTERM received), a pid to the FIFO `stopping`; interrupts it (SIGINT), waits for
    /// `stopping`, interrupts it again (SIGTERM) and reads the rest. The grace period is far longer than the time limit.
    private func interruptTwice(_ manifest: String) async throws -> TwiceInterrupted {
        let folder = try folder(manifest)
        try LineReader.makeFIFO(folder.file("stopping"))
        defer { LineReader.release(fifo: folder.file("stopping")) }
        let (running, pids) = try await startHeldRun(["--grace-period", "300s"], in: folder, until: "Services running")
        defer { try? FileManager.default.removeItem(atPath: running.errorFile) }
        defer { cleanUp(pids, folder) }
        try #require(pids.count == 1)
        kill(running.process.processIdentifier, SIGINT)
        let stopping = await Support.readPids(fromFIFO: folder.file("stopping"))
        defer { for pid in stopping { _ = kill(pid, SIGKILL) } }
        try #require(stopping.count == 1, "the stop did not start")
        kill(running.process.processIdentifier, SIGTERM)
        let rest = await LineReader.readLines(from: running.output, through: nil, closes: true)
        let status = await running.exit.value()
        return TwiceInterrupted(rest: rest, status: status, leftRunning: (pids + stopping).filter { kill($0, 0) == 0 })
    }

    @Test(.timeLimit(.minutes(1)))
    func secondInterrupt_killsAServiceStopLineAndTheService_atOnce() async throws {
        // Both ignore SIGTERM: the stop line used to run out its grace period, then the service its own, whatever the
        // second interrupt.
        let run = try await interruptTwice(
            #"""
            {"version": 1, "commands": [{"id": "service", "ready": {"log": "up"},
              "run": "trap '' TERM; echo $$ > ready; echo up; exec sleep 100",
              "stop": "trap '' TERM; echo $$ > stopping; exec sleep 100"}]}
            """#)
        #expect(run.status == 130)
        #expect(run.rest.contains("stop line killed: interrupted again"), "\(run.rest)")
        #expect(run.leftRunning.isEmpty, "the service or its stop line was left running")
    }

    @Test(.timeLimit(.minutes(1)))
    func secondInterrupt_killingAServiceThatIgnoresSIGTERM_listsItAsCutShort() async throws {
        // No stop line: the service survives the first interrupt's SIGTERM (and says so), the second kills it at once.
        // It was listed as stopped cleanly ("✓ service", "1 stopped").
        let run = try await interruptTwice(
            #"""
            {"version": 1, "commands": [{"id": "service", "ready": {"log": "up"},
              "run": "trap 'echo $$ > stopping' TERM; echo $$ > ready; echo up; while :; do sleep 100 & wait $!; done"}]}
            """#)
        #expect(run.status == 130)
        #expect(run.rest.contains("service") && run.rest.contains("killed: interrupted again"), "\(run.rest)")
        #expect(!run.rest.contains("1 stopped"), "\(run.rest)")
        #expect(run.leftRunning.isEmpty, "the service was left running")
    }

    @Test(.timeLimit(.minutes(1)))
    func sighupIgnoredAtStart_staysIgnored_likeUnderNohup() async throws {
        // `nohup startup run --keep-running &`: SIGHUP, ignored when startup started, was handled as an interrupt (the
        // terminal's closing tore the stack down). Counted, it made the SIGINT after it a second interrupt, which
        // kills the stop line at once; ignored, the SIGINT is the first and the stop line runs to its end.
        let folder = try folder(
            #"""
            {"version": 1, "commands": [{"id": "job", "run": "echo $$ > ready",
              "stop": "echo $$ > stopping; read line < release; echo stopped after $line"}]}
            """#)
        try LineReader.makeFIFO(folder.file("stopping"))
        try LineReader.makeFIFO(folder.file("release"))
        defer { LineReader.release(fifo: folder.file("stopping")) }
        let (running, pids) = try await startHeldRun(
            ["--keep-running"], in: folder, until: "Keeping running", ignoring: ["HUP"])
        defer { try? FileManager.default.removeItem(atPath: running.errorFile) }
        defer { cleanUp(pids, folder) }
        kill(running.process.processIdentifier, SIGHUP)
        kill(running.process.processIdentifier, SIGINT)
        let stopLine = await Support.readPids(fromFIFO: folder.file("stopping"))
        defer { for pid in stopLine { _ = kill(pid, SIGKILL) } }
        try #require(stopLine.count == 1)
        await LineReader.writeLine("release", toFIFO: folder.file("release"))
        let rest = await LineReader.readLines(from: running.output, through: nil, closes: true)
        #expect(await running.exit.value() == 130)
        #expect(rest.contains("1 stopped") && !rest.contains("killed"), "\(rest)")
    }

    #if os(Linux)
        @Test(.timeLimit(.minutes(1)))
        func commandAfterDashDash_keepsTheSignalsStartupWasStartedWithIgnored() async throws {
            // `nohup startup run -- tests &`: the command runs in startup's process group, where a hangup reaches it;
            // it got SIGHUP at its default action, and died of it though startup ignored it.
            let folder = try TemporaryDirectory()
            try folder.write("commands.json", #"{"version": 1, "commands": [{"id": "setup", "run": "true"}]}"#)
            func hangUpIgnoredByCommand(startedIgnoring signals: [String]) async throws -> Bool {
                let running = try StartupBinary.startWithPipedOutput(
                    ["run", "--no-report", "--", "grep", "SigIgn", "/proc/self/status"], in: folder.path, ignoring: signals)
                defer { try? FileManager.default.removeItem(atPath: running.errorFile) }
                let output = await LineReader.readLines(from: running.output, through: nil, closes: true)
                #expect(await running.exit.value() == 0, "\(output)")
                let line = try #require(output.split(separator: "\n").first { $0.hasPrefix("SigIgn:") }, "\(output)")
                let mask = try #require(UInt64(line.dropFirst("SigIgn:".count).trimmingCharacters(in: .whitespaces), radix: 16))
                return mask & (1 << UInt64(SIGHUP - 1)) != 0
            }
            #expect(try await hangUpIgnoredByCommand(startedIgnoring: ["HUP"]))
            #expect(try await !hangUpIgnoredByCommand(startedIgnoring: []), "a signal startup handles is at its default")
        }
    #endif

    @Test(.timeLimit(.minutes(1)))
    func serviceEndedByItsStopLine_leavesNothingOfItsGroupRunning() async throws {
        // The stop line ends the service's shell; the shell's background `sleep` stays in the service's process group.
        // It was left running: the service's process had ended before startup stopped it, as if by itself.
        let folder = try folder(
            #"""
            {"version": 1, "commands": [{"id": "service", "ready": {"log": "up"},
              "run": "sleep 100 & echo $$ > service.pid; echo $! > ready; echo up; wait",
              "stop": "kill $(cat service.pid)"}]}
            """#)
        let (running, pids) = try await startHeldRun([], in: folder, until: "Services running")
        defer { try? FileManager.default.removeItem(atPath: running.errorFile) }
        defer { cleanUp(pids, folder) }
        try #require(pids.count == 1)
        kill(running.process.processIdentifier, SIGINT)
        let rest = await LineReader.readLines(from: running.output, through: nil, closes: true)
        #expect(await running.exit.value() == 130)
        #expect(rest.contains("1 stopped"), "\(rest)")
        #expect(!Support.isRunningAndUnsignalled(pids[0]), "the service's background process was left running")
    }

    @Test(.timeLimit(.minutes(1)))
    func secondInterrupt_killsARunningStopLine_atOnce_andRunsNoOtherStopLine_exits130() async throws {
        // The stop line ignores SIGTERM and the grace period is far longer than the time limit. `base`'s stop line
        // comes after `job`'s; it used to be reported as `cannot run "true": cancelled before it started`, and the
        // stops cut short as failed stops (exit 1), though the user had asked for them to end.
        let folder = try folder(
            #"""
            {"version": 1, "commands": [{"id": "base", "run": "true", "stop": "true"},
              {"id": "job", "run": "echo $$ > ready", "dependencies": ["base"],
              "stop": "trap '' TERM; echo $$ > stopping; exec sleep 100"}]}
            """#)
        try LineReader.makeFIFO(folder.file("stopping"))
        defer { LineReader.release(fifo: folder.file("stopping")) }
        let (running, pids) = try await startHeldRun(
            ["--keep-running", "--grace-period", "300s"], in: folder, until: "Keeping running")
        defer { try? FileManager.default.removeItem(atPath: running.errorFile) }
        defer { cleanUp(pids, folder) }
        kill(running.process.processIdentifier, SIGINT)
        let stopLine = await Support.readPids(fromFIFO: folder.file("stopping"))
        defer { for pid in stopLine { _ = kill(pid, SIGKILL) } }
        try #require(stopLine.count == 1)
        kill(running.process.processIdentifier, SIGTERM)
        let rest = await LineReader.readLines(from: running.output, through: nil, closes: true)
        #expect(await running.exit.value() == 130)
        #expect(rest.contains("job   ") && rest.contains("stop line killed: interrupted again"), "\(rest)")
        #expect(rest.contains("stop line not run: interrupted again"), "\(rest)")
        #expect(rest.contains("Stopping cut short in ") && rest.contains(": 0 stopped, 2 cut short by a second interrupt"), "\(rest)")
        #expect(kill(stopLine[0], 0) == -1 && errno == ESRCH, "the stop line was left running")
    }

    @Test(.timeLimit(.minutes(2)))
    func stopLineOverItsStopTimeout_thatIgnoresSIGTERM_isKilledAfterTheGrace_andSaysSo() async throws {
        // The stop line gets SIGTERM at its stopTimeout and SIGKILL a grace period later; startup used to exit with it
        // running, and then to give up on it at its command's timeout.
        let folder = try folder(
            #"""
            {"version": 1, "commands": [{"id": "job", "run": "true", "stopTimeout": "1s",
              "stop": "trap '' TERM; echo $$ > ready; exec sleep 100"}]}
            """#)
        let running = try StartupBinary.start(["run", "--no-report", "--grace-period", "1s", "--", "true"], in: folder.path)
        let pids = await readyPids(in: folder)
        defer { cleanUp(pids, folder) }
        try #require(pids.count == 1)
        let result = await running.finish()
        #expect(kill(pids[0], 0) == -1 && errno == ESRCH, "the stop line was left running")
        #expect(result.output.contains("stop line stopped at its 1s stopTimeout, killed after the grace period"), "\(result.output)")
    }

    @Test(.timeLimit(.minutes(2)))
    func commandThatExitsByItself_mayLeaveADaemonRunning() async throws {
        let folder = try folder(
            #"""
            {"version": 1, "commands": [{"id": "daemon", "run": "setsid sleep 100 & echo $! > ready"}]}
            """#)
        let running = try StartupBinary.start(["run"], in: folder.path)
        let pids = await readyPids(in: folder)
        defer { cleanUp(pids, folder) }
        try #require(pids.count == 1)
        let result = await running.finish()
        #expect(result.status == 0)
        #expect(Support.isRunningAndUnsignalled(pids[0]), "the daemon left on purpose was stopped")
    }

    @Test(.timeLimit(.minutes(2)))
    func keepRunning_reapsAnAdoptedOrphanAsItExits() async throws {
        // The command leaves a `setsid` shell (adopted by startup once the command has exited) that exits when
        // the test opens the `gate` FIFO, while startup keeps running with no command left to exit.
        let folder = try folder(
            #"""
            {"version": 1, "commands": [{"id": "spawner", "run": "setsid sh -c 'echo $$ > ready; read line < gate' &"}]}
            """#)
        try LineReader.makeFIFO(folder.file("gate"))
        let running = try StartupBinary.startWithPipedOutput(["run", "--keep-running"], in: folder.path)
        defer { try? FileManager.default.removeItem(atPath: running.errorFile) }
        let pids = await readyPids(in: folder)
        defer { cleanUp(pids, folder) }
        try #require(pids.count == 1)
        let shown = await LineReader.readLines(from: running.output, through: "Keeping running", closes: false)
        try #require(shown.contains("Keeping running"), "the run did not reach --keep-running: \(shown)")
        let reaped = await ProcessExitWaiter.waitUntilReaped(pids[0]) {
            let gate = open(folder.file("gate"), O_WRONLY | O_CLOEXEC)
            if gate >= 0 { _ = close(gate) }
        }
        #expect(reaped, "the orphan stayed a zombie while startup kept running")
        kill(running.process.processIdentifier, SIGINT)
        _ = await LineReader.readLines(from: running.output, through: nil, closes: true)
        #expect(await !running.exit.diedOfSignal(), "startup died of a signal")
    }

    @Test(.timeLimit(.minutes(2)))
    func retryThatTimesOut_stopsOnlyItsOwnTree_notTheDaemonAnEarlierAttemptLeft() async throws {
        // Attempt 1 leaves a `setsid` daemon (adopted by startup once the attempt's shell exits) and fails;
        // attempt 2 runs until its timeout stops it. The daemon carries the same STARTUP_COMMAND_ID.
        let folder = try folder(
            #"""
            {"version": 1, "commands": [{"id": "flaky", "retries": 1, "timeout": "1s",
              "run": "if [ -e tried ]; then exec sleep 100; fi; touch tried; setsid sleep 100 & echo $! > ready; exit 1"}]}
            """#)
        let running = try StartupBinary.start(["run"], in: folder.path)
        let pids = await readyPids(in: folder)
        defer { cleanUp(pids, folder) }
        try #require(pids.count == 1)
        let result = await running.finish()
        #expect(result.status == 1)
        #expect(result.output.contains("timed out"))
        #expect(Support.isRunningAndUnsignalled(pids[0]), "the retry's timeout stopped the daemon an earlier attempt left")
    }

    @Test(.timeLimit(.minutes(1)))
    func secondInterrupt_killsAChildThatIgnoresSIGTERM_atOnce() async throws {
        // The grace period is far longer than the time limit: only SIGKILL at once ends the run in time.
        let folder = try folder(
            #"""
            {"version": 1, "commands": [{"id": "stubborn", "run": "trap '' TERM; echo $$ > ready; exec sleep 100"}]}
            """#)
        let running = try StartupBinary.start(["run", "--grace-period", "300s"], in: folder.path)
        let pids = await readyPids(in: folder)
        defer { cleanUp(pids, folder) }
        try #require(pids.count == 1)
        // Two different signals, so they cannot merge into one.
        kill(running.pid, SIGINT)
        kill(running.pid, SIGTERM)
        let result = await running.finish()
        #expect(result.status == 130)
        #expect(kill(pids[0], 0) == -1 && errno == ESRCH, "the command was left running")
    }

    @Test(.timeLimit(.minutes(1)))
    func secondInterrupt_aloneAfterTheStopBegan_killsAtOnce() async throws {
        // The second signal comes on its own, once the child has its SIGTERM (it says so through a
        // FIFO): the engine must apply it then, not at the next exit (which would never come).
        let folder = try folder(
            #"""
            {"version": 1, "commands": [{"id": "stubborn",
              "run": "trap 'echo term > term' TERM; echo $$ > ready; while true; do sleep 0.05; done"}]}
            """#)
        try LineReader.makeFIFO(folder.file("term"))
        defer { LineReader.release(fifo: folder.file("term")) }
        let running = try StartupBinary.start(["run", "--grace-period", "300s"], in: folder.path)
        let pids = await readyPids(in: folder)
        defer { cleanUp(pids, folder) }
        try #require(pids.count == 1)
        kill(running.pid, SIGINT)
        #expect(await LineReader.readLine(fromFIFO: folder.file("term")) == "term")
        kill(running.pid, SIGTERM)
        let result = await running.finish()
        #expect(result.status == 130)
        #expect(result.output.contains("; killed at the second interrupt ("), "\(result.output)")
        #expect(!result.output.contains("after the grace period"), "\(result.output)")
        #expect(await ProcessExitWaiter.waitUntilGone(pids[0]), "the command was left running")
    }
}
