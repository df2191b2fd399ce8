import Foundation
import StartupManifest
import Testing

@testable import StartupCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `ServiceRunner` against the `startup-test-server` binary: probes report ready only once the server listens,
/// services that end by themselves are errors that say how, and cancellation stops every process of the service.
@Suite struct ServiceRunnerTests {
    /// A service run in a task of its own, with what it reported.
    struct Running {
        let events = ServiceEvents()
        let task: Task<(any Error)?, Never>

        /// Starts `line` (through `/bin/sh -c`) as a service; `atReady` is evaluated when it is reported ready and
        /// recorded as a line `at-ready true|false` just before `.ready`.
        init(
            _ line: String, readiness: ManifestReadiness, stop: String? = nil, gracePeriod: Duration = .seconds(5),
            in folder: TemporaryDirectory, atReady: @escaping @Sendable () -> Bool = { true }
        ) {
            let environment = ProcessInfo.processInfo.environment.merging(["STARTUP_COMMAND_ID": "service"]) { _, new in new }
            let spec = ProcessSpec(arguments: ["/bin/sh", "-c", line], environment: environment, workingDirectory: folder.path)
            let stopSpec = stop.map {
                ProcessSpec(arguments: ["/bin/sh", "-c", $0], environment: environment, workingDirectory: folder.path)
            }
            let events = self.events
            task = Task {
                do {
                    try await ServiceRunner.run(
                        spec, readiness: readiness, stop: stopSpec, gracePeriod: gracePeriod,
                        onLine: { events.record(.line($0)) },
                        onReady: {
                            events.record(.line("at-ready \(atReady())"))
                            events.record(.ready)
                        })
                    return nil
                } catch {
                    return error
                }
            }
        }

        func waitUntilReady() async -> Bool {
            await events.wait(until: { $0.contains(.ready) })
        }

        /// Cancels the runner and returns what it threw.
        func stop() async -> (any Error)? {
            task.cancel()
            return await task.value
        }
    }

    private static var server: String { TestServer.path }

    /// `true` once `pid` has been reaped: signalling it fails with ESRCH.
    private func isReaped(_ pid: Int32) -> Bool {
        kill(pid, 0) == -1 && errno == ESRCH
    }

    @Test func tcpProbe_reportsReadyOnlyOnceTheServerListens() async throws {
        let folder = try TemporaryDirectory()
        let port = TestServer.freePort()
        let service = Running(
            "exec \(Self.server) --port \(port) --delay 150ms --ready-line listening",
            readiness: ManifestReadiness(probe: .tcp(host: "127.0.0.1", port: port)), in: folder,
            atReady: { TestServer.accepts(port: port) })
        #expect(await service.waitUntilReady())
        #expect(service.events.lines.contains("at-ready true"))
        #expect(await service.stop() is CancellationError)
        #expect(service.events.events.filter { $0 == .ready }.count == 1)
    }

    @Test func httpProbe_reportsReadyOnlyOnceTheServerAnswersItsHealthCheck() async throws {
        let folder = try TemporaryDirectory()
        let port = TestServer.freePort()
        let service = Running(
            "exec \(Self.server) --port \(port) --delay 150ms",
            readiness: ManifestReadiness(probe: .http(host: "localhost", port: port, path: "/health")), in: folder,
            atReady: { TestServer.get("/health", port: port) == "HTTP/1.1 200 OK" })
        #expect(await service.waitUntilReady())
        #expect(service.events.lines.contains("at-ready true"))
        #expect(await service.stop() is CancellationError)
    }

    @Test func logProbe_reportsReadyWhenTheTextAppears_beforeTheLineThatHoldsIt() async throws {
        let folder = try TemporaryDirectory()
        let port = TestServer.freePort()
        let service = Running(
            "echo starting; exec \(Self.server) --port \(port) --delay 100ms --ready-line 'now listening'",
            readiness: ManifestReadiness(probe: .log("listening")), in: folder,
            atReady: { TestServer.accepts(port: port) })
        #expect(await service.waitUntilReady())
        #expect(await service.events.waitForLine { $0 == "now listening" })
        #expect(await service.stop() is CancellationError)
        #expect(service.events.events == [.line("starting"), .line("at-ready true"), .ready, .line("now listening")])
    }

    @Test func execProbe_reportsReadyOnceTheShellLineExitsZero() async throws {
        let folder = try TemporaryDirectory()
        let flag = folder.file("ready.flag")
        let service = Running(
            "sleep 0.1; touch ready.flag; exec sleep 600",
            readiness: ManifestReadiness(probe: .exec("test -f ready.flag"), interval: .milliseconds(5)), in: folder,
            atReady: { FileManager.default.fileExists(atPath: flag) })
        #expect(await service.waitUntilReady())
        #expect(service.events.lines.contains("at-ready true"))
        #expect(await service.stop() is CancellationError)
    }

    @Test func serviceThatExitsBeforeReady_throwsWithItsStatus_andDeliversEveryLineInOrder_thePartialLastOneToo() async throws {
        let folder = try TemporaryDirectory()
        let service = Running(
            "printf 'one\\ntwo\\r\\nthree'; exit 3",
            readiness: ManifestReadiness(probe: .tcp(host: "127.0.0.1", port: TestServer.freePort())), in: folder)
        let error = await service.task.value
        #expect(error as? ServiceRunnerError == ServiceRunnerError(.exited(.exited(3), afterReady: false)))
        #expect((error as? ServiceRunnerError)?.description == "exited with status 3 before it was ready")
        #expect(service.events.events == [.line("one"), .line("two"), .line("three")])
    }

    @Test func serviceThatCannotStart_throwsTheSpawnFailure() async throws {
        let folder = try TemporaryDirectory()
        let spec = ProcessSpec(arguments: ["/nonexistent/server"], environment: [:], workingDirectory: folder.path)
        await #expect(throws: ServiceRunnerError.self) {
            try await ServiceRunner.run(
                spec, readiness: ManifestReadiness(probe: .log("up")), stop: nil, gracePeriod: .seconds(1),
                onLine: { _ in }, onReady: {})
        }
    }

    @Test func serviceThatExitsAfterReady_throwsItsStatus_afterOnReady() async throws {
        let folder = try TemporaryDirectory()
        let port = TestServer.freePort()
        let service = Running(
            "exec \(Self.server) --port \(port) --ready-line up",
            readiness: ManifestReadiness(probe: .log("up")), in: folder)
        #expect(await service.waitUntilReady())
        #expect(TestServer.get("/exit?code=5", port: port) == "HTTP/1.1 200 OK")
        let error = await service.task.value
        #expect(error as? ServiceRunnerError == ServiceRunnerError(.exited(.exited(5), afterReady: true)))
        #expect((error as? ServiceRunnerError)?.description == "exited with status 5")
    }

    @Test(arguments: [false, true])
    func cancellation_withoutAStopLine_endsEveryProcessOfTheGroup_SIGKILLAfterTheGraceWhenTERMIsIgnored(ignoresTerm: Bool) async throws {
        let folder = try TemporaryDirectory()
        let port = TestServer.freePort()
        let trap = ignoresTerm ? "trap '' TERM; " : ""
        let service = Running(
            "\(trap)echo pid $$; sleep 600 & echo member $!; exec \(Self.server) --port \(port) --ready-line up\(ignoresTerm ? " --ignore-term" : "")",
            readiness: ManifestReadiness(probe: .log("up")), gracePeriod: .milliseconds(200), in: folder)
        #expect(await service.waitUntilReady())
        let leader = try #require(service.events.number(after: "pid "))
        let member = try #require(service.events.number(after: "member "))
        #expect(await service.stop() is CancellationError)
        #expect(isReaped(leader))
        #expect(await ProcessExitWaiter.waitUntilGone(member))
    }

    @Test func cancellation_withAStopLine_runsItFirst_withItsOutputInTheServicesLines() async throws {
        let folder = try TemporaryDirectory()
        let port = TestServer.freePort()
        // The server ignores SIGTERM and the grace period is long: only the stop line's SIGINT ends it promptly.
        let service = Running(
            "echo $$ > service.pid; exec \(Self.server) --port \(port) --ready-line up --ignore-term",
            readiness: ManifestReadiness(probe: .tcp(host: "127.0.0.1", port: port)),
            stop: "echo stopping; kill -INT $(cat service.pid)", gracePeriod: .seconds(60), in: folder)
        #expect(await service.waitUntilReady())
        let leader = try #require(
            Int32(String(contentsOfFile: folder.file("service.pid"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(await service.stop() is CancellationError)
        #expect(service.events.lines.contains("stopping"))
        #expect(isReaped(leader))
    }

    @Test func cancellation_whenTheStopLineFails_killsTheServiceAfterTheGrace_andThrowsTheStopFailure() async throws {
        let folder = try TemporaryDirectory()
        let port = TestServer.freePort()
        let service = Running(
            "echo pid $$; exec \(Self.server) --port \(port) --ready-line up",
            readiness: ManifestReadiness(probe: .log("up")), stop: "exit 4", gracePeriod: .seconds(1), in: folder)
        #expect(await service.waitUntilReady())
        let leader = try #require(service.events.number(after: "pid "))
        let error = await service.stop()
        #expect(error as? ServiceRunnerError == ServiceRunnerError(.stopFailed(.exited(4))))
        #expect((error as? ServiceRunnerError)?.description == "stop line failed: exit status 4")
        #expect(isReaped(leader))
    }

    @Test func httpProbe_againstA500_neverReportsReady() async throws {
        let folder = try TemporaryDirectory()
        let port = TestServer.freePort()
        let service = Running(
            "exec \(Self.server) --port \(port) --health-status 500 --log-requests",
            readiness: ManifestReadiness(probe: .http(host: "127.0.0.1", port: port, path: "/health")), in: folder)
        #expect(await service.events.wait(until: { $0.filter { $0 == .line("GET /health 500") }.count >= 3 }))
        #expect(await service.stop() is CancellationError)
        #expect(!service.events.events.contains(.ready))
    }

    @Test func execProbeInFlight_whenTheServiceExits_isStoppedAndReaped() async throws {
        let folder = try TemporaryDirectory()
        let service = Running(
            "while [ ! -s probe.pid ]; do sleep 0.01; done; exit 2",
            readiness: ManifestReadiness(probe: .exec("echo $$ > probe.pid; exec sleep 600")), in: folder)
        let error = await service.task.value
        #expect(error as? ServiceRunnerError == ServiceRunnerError(.exited(.exited(2), afterReady: false)))
        let probe = try #require(
            Int32(String(contentsOfFile: folder.file("probe.pid"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(isReaped(probe))
    }
}
