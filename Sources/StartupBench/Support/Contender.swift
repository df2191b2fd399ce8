/// One implementation under measurement: a name and a closure that runs it once and returns the
/// time that counts (for example only `run()`, not building the plan).
struct Contender {
    /// The name printed next to its figures.
    let name: String
    /// Runs the implementation once and returns its measured time.
    let measure: () async -> Duration

    /// Creates a contender.
    init(_ name: String, measure: @escaping () async -> Duration) {
        self.name = name
        self.measure = measure
    }

    /// Runs every contender `repetitions` times, round-robin so that noise on the shared machine
    /// spreads over all of them alike, after `warmUps` untimed rounds.
    ///
    /// - Returns: The samples of each contender, in the order given.
    @MainActor
    static func interleave(_ contenders: [Contender], repetitions: Int, warmUps: Int) async -> [Samples] {
        for _ in 0..<warmUps {
            for contender in contenders { _ = await contender.measure() }
        }
        var samples = [Samples](repeating: Samples(), count: contenders.count)
        for _ in 0..<repetitions {
            for (index, contender) in contenders.enumerated() {
                samples[index].append(await contender.measure())
            }
        }
        return samples
    }

    /// Times `work` with the continuous clock.
    @MainActor
    static func time(_ work: () async -> Void) async -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        await work()
        return start.duration(to: clock.now)
    }
}
