import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// End-to-end: stopping many commands whose wrapper shell ignores SIGTERM costs time linear in their number, and a
/// second interrupt amid hundreds of pending stops ends the run at once. Each command writes the pid of its `sleep`
/// to the FIFO `ready`; the test interrupts the run once all of them have.
@Suite(.serialized) struct StopAtScaleEndToEndTests {
    /// The grace period of the runs that wait it out.
    private static let gracePeriod = Duration.seconds(1)

    /// The most wrappers a run has: 500, or 200 under the thread sanitizer (``StartupBinary/isSanitized``).
    private static let most = StartupBinary.isSanitized ? 200 : 500

    /// A run of `count` wrappers that ignore SIGTERM (and so does their `sleep`, which inherits the ignored
    /// signal), interrupted once they all run, then again `secondAfter` later if given: how long it took from the
    /// first interrupt to the exit, its status, and the sleeps left running.
    private func interrupt(
        _ count: Int, gracePeriod: Duration, secondAfter: Duration? = nil
    ) async throws -> (elapsed: Duration, status: Int32, left: [pid_t]) {
        let folder = try TemporaryDirectory()
        let command = #"{"id": "c%d", "run": "sh -c 'trap \"\" TERM; sleep 600 & echo $! > ready; wait'"}"#
        let commands = (0..<count).map { String(format: command, $0) }.joined(separator: ",\n")
        try folder.write("commands.json", #"{"version": 1, "commands": ["# + commands + "]}")
        try LineReader.makeFIFO(folder.file("ready"))
        let running = try StartupBinary.start(
            ["run", "--no-report", "-j", String(count), "--grace-period", "\(gracePeriod.components.seconds)s"],
            in: folder.path)
        let sleeps = await LineReader.readLines(count, fromFIFO: folder.file("ready")).compactMap { pid_t($0) }
        defer { for pid in sleeps { _ = kill(pid, SIGKILL) } }
        try #require(sleeps.count == count, "not every command started")
        let clock = ContinuousClock()
        let start = clock.now
        kill(running.pid, SIGTERM)
        if let secondAfter {
            try await Task.sleep(for: secondAfter)
            kill(running.pid, SIGTERM)
        }
        let result = await running.finish()
        let elapsed = start.duration(to: clock.now)
        return (elapsed, result.status, sleeps.filter(SpawnTestSupport.isRunningAndUnsignalled))
    }

    /// A fifth, half and all of ``most`` wrappers (100, 250 and 500): each is killed after the grace period, and what
    /// the stop costs beyond the grace grows about as their number does. The bounds are loose, for a machine running
    /// other suites beside these processes (the bench holds the figure): ten times the cost of the fewest plus 5 s,
    /// where a quadratic stop of 500 took minutes (every tree looked at every process).
    @Test(.timeLimit(.minutes(5)))
    func stoppingTermIgnoringWrappers_costsTimeLinearInTheirNumber() async throws {
        var overheads: [Int: Duration] = [:]
        for count in [Self.most / 5, Self.most / 2, Self.most] {
            let run = try await interrupt(count, gracePeriod: Self.gracePeriod)
            #expect(run.status == 130, "\(count) commands")
            #expect(run.left.isEmpty, "\(run.left.count) of \(count) sleeps were left running")
            overheads[count] = run.elapsed - Self.gracePeriod
        }
        let small = max(overheads[Self.most / 5] ?? .zero, .milliseconds(200))
        let large = try #require(overheads[Self.most])
        #expect(
            large <= (small * 10 + .seconds(5)) * StartupBinary.slowness,
            "stopping \(Self.most) cost \(large) beyond the grace, \(Self.most / 5) cost \(small)")
    }

    /// With a grace period far longer than the test may take (300 s), a second interrupt 300 ms into the stop of
    /// ``most`` wrappers kills them all at once: the run exits within 10 s of the first interrupt (about 0.45 s for 500
    /// on a quiet machine; the bound leaves room for other suites' processes beside these).
    @Test(.timeLimit(.minutes(3)))
    func aSecondInterrupt_amidFiveHundredStops_killsThemAtOnce() async throws {
        let run = try await interrupt(Self.most, gracePeriod: .seconds(300), secondAfter: .milliseconds(300))
        #expect(run.status == 130)
        #expect(run.left.isEmpty, "\(run.left.count) of \(Self.most) sleeps were left running")
        #expect(
            run.elapsed <= .seconds(10) * StartupBinary.slowness, "the run took \(run.elapsed) to end after the first interrupt")
    }
}
