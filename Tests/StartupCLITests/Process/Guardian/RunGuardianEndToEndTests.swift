import Foundation
import Testing

@testable import StartupCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// End-to-end: when `startup` itself is killed with SIGKILL, what it started is still stopped, by its guardian:
/// SIGTERM first (a process that handles it records it), SIGKILL after the grace period to what ignores it, and
/// what left its process group and session too; what a command that ended by itself left running stays, as it does
/// when the run ends by itself.
@Suite struct RunGuardianEndToEndTests {
    #if os(Linux)
        @Test(.timeLimit(.minutes(2)))
        func startupKilledOutright_itsProcessesGetSIGTERM_thenSIGKILLAfterTheGrace() async throws {
            let folder = try TemporaryDirectory()
            try folder.write(
                "commands.json",
                #"""
                {"version": 1, "commands": [
                  {"id": "handles", "run": "sh -c 'trap \"echo handles >> termed; exit 0\" TERM; echo $$ > ready; while :; do sleep 1; done'"},
                  {"id": "ignores", "run": "sh -c 'trap \"\" TERM; echo $$ > ready; exec sleep 600'"},
                  {"id": "detached", "run": "sh -c 'setsid sh -c \"trap \\\"echo detached >> termed; exit 0\\\" TERM; echo \\$\\$ > ready; while :; do sleep 1; done\" & wait'"},
                  {"id": "daemon", "run": "sh -c 'sleep 600 > /dev/null 2>&1 & echo $! > daemon.pid'"},
                  {"id": "after-daemon", "run": "sh -c 'echo $$ > ready; exec sleep 600'", "dependencies": ["daemon"]}
                ]}
                """#)
            try LineReader.makeFIFO(folder.file("ready"))
            // The grace period leaves a loaded machine time to run the handlers.
            let running = try StartupBinary.start(["run", "--no-report", "--grace-period", "3s"], in: folder.path)
            // `after-daemon` starts once `daemon` has ended by itself, and the run has told its guardian so.
            let pids = await LineReader.readLines(4, fromFIFO: folder.file("ready")).compactMap { pid_t($0) }
            defer { for pid in pids { _ = kill(pid, SIGKILL) } }
            try #require(pids.count == 4, "not every command started")
            let daemon = try #require(
                pid_t(String(contentsOfFile: folder.file("daemon.pid"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
            defer { _ = kill(daemon, SIGKILL) }

            kill(running.pid, SIGKILL)
            for pid in pids {
                #expect(await ProcessExitWaiter.waitUntilGone(pid, failsafe: .seconds(60)), "\(pid) was left running")
            }
            let termed = (try? String(contentsOfFile: folder.file("termed"), encoding: .utf8)) ?? ""
            #expect(termed.split(separator: "\n").sorted() == ["detached", "handles"], "SIGTERM did not come first: \(termed)")
            #expect(SpawnTestSupport.isRunningAndUnsignalled(daemon), "what a command that ended by itself left was stopped")
            let result = await running.finish()
            #expect(result.status == SIGKILL)
            #expect(result.error.contains("the run ended without stopping what it started"), "\(result.error)")
        }

        @Test(.timeLimit(.minutes(2)))
        func aRunThatEndsByItself_leavesWhatACommandStartedOnPurpose() async throws {
            let folder = try TemporaryDirectory()
            try folder.write(
                "commands.json",
                #"""
                {"version": 1, "commands": [{"id": "daemon", "run": "sh -c 'sleep 600 > /dev/null 2>&1 & echo $! > ready; read go < go'"}]}
                """#)
            try LineReader.makeFIFO(folder.file("ready"))
            try LineReader.makeFIFO(folder.file("go"))
            let running = try StartupBinary.start(["run", "--no-report", "--grace-period", "1s"], in: folder.path)
            let daemon = try #require(pid_t(await LineReader.readLine(fromFIFO: folder.file("ready"))))
            defer { _ = kill(daemon, SIGKILL) }
            // The guardian starts before the first command; the command waits for the word to end.
            let guardian = try #require(guardianPid(of: running.pid), "no guardian was started")
            await LineReader.writeLine("go", toFIFO: folder.file("go"))
            #expect(await running.finish().status == 0)
            #expect(await ProcessExitWaiter.waitUntilGone(guardian, failsafe: .seconds(60)), "the guardian stayed")
            #expect(SpawnTestSupport.isRunningAndUnsignalled(daemon), "the guardian stopped what was left on purpose")
        }

        /// The guardian's flag typed by hand, with a prefix that would match every run's processes or an absurd grace
        /// period, is refused: only `startup run` starts a guardian.
        @Test(arguments: [
            ["STARTUP_PROCESS_TOKEN=", "1000"], ["STARTUP_PROCESS_TOKEN=a b.", "1000"], ["STARTUP_PROCESS_TOKEN=ab.", "-1"],
        ])
        func aGuardianStartedByHand_withoutOneRunsMarker_isRefused(arguments: [String]) async throws {
            let folder = try TemporaryDirectory()
            let result = try await StartupBinary.run([RunGuardian.argument] + arguments, in: folder.path)
            #expect(result.status == 64)
            #expect(result.error.contains("--guard-run is for startup run's own use"), "\(result.error)")
        }

        /// The guardian among the children of `startup`'s threads (its command line names the guardian's flag).
        private func guardianPid(of startup: pid_t) -> pid_t? {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(startup)/task")) ?? []
            let children = tasks.flatMap { task in
                ((try? String(contentsOfFile: "/proc/\(startup)/task/\(task)/children", encoding: .utf8)) ?? "")
                    .split(separator: " ").compactMap { pid_t($0) }
            }
            return children.first { child in
                let line = (try? String(contentsOfFile: "/proc/\(child)/cmdline", encoding: .utf8)) ?? ""
                return line.contains(RunGuardian.argument)
            }
        }
    #endif
}
