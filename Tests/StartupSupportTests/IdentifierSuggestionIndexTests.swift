import StartupSeededRandom
import Testing

@testable import StartupSupport

@Suite struct IdentifierSuggestionIndexTests {
    /// Today's answer by a full scan: the nearest within a third of the length (earliest on ties),
    /// else the shortest candidate the typo abbreviates (earliest on ties).
    private func fullScan(_ typo: String, _ candidates: [String], excluding excluded: String? = nil) -> String? {
        let typed = Array(typo.unicodeScalars)
        guard !typed.isEmpty else { return nil }
        let limit = max(1, typed.count / 3)
        var best: (id: String, distance: Int)?
        var abbreviated: (id: String, extra: Int)?
        for candidate in candidates where candidate != excluded {
            let scalars = Array(candidate.unicodeScalars)
            if abs(scalars.count - typed.count) <= limit {
                let distance = IdentifierSuggestion.editDistance(typed, scalars, limit: limit)
                if distance <= limit, distance < best?.distance ?? .max { best = (candidate, distance) }
            }
            if IdentifierSuggestion.isAbbreviation(typed, of: scalars), scalars.count - typed.count < abbreviated?.extra ?? .max {
                abbreviated = (candidate, scalars.count - typed.count)
            }
        }
        return best?.id ?? abbreviated?.id
    }

    private func randomWord(_ generator: inout SeededGenerator, length: ClosedRange<Int>) -> String {
        let letters = Array("abcdeilmnorst-")
        return String((0..<Int.random(in: length, using: &generator)).map { _ in letters.randomElement(using: &generator)! })
    }

    /// A word with one to three random edits.
    private func typo(of word: String, _ generator: inout SeededGenerator) -> String {
        var scalars = Array(word)
        for _ in 0..<Int.random(in: 1...3, using: &generator) {
            let position = Int.random(in: 0..<max(1, scalars.count), using: &generator)
            switch Int.random(in: 0..<4, using: &generator) {
            case 0 where !scalars.isEmpty: scalars.remove(at: position)
            case 1: scalars.insert("x", at: min(position, scalars.count))
            case 2 where position + 1 < scalars.count: scalars.swapAt(position, position + 1)
            default: if !scalars.isEmpty { scalars[position] = "q" }
            }
        }
        return String(scalars)
    }

    @Test(arguments: 0..<40)
    func closest_whenFewCandidatesAreWithinReach_matchesAFullScan(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let candidates = (0..<40).map { _ in randomWord(&generator, length: 3...14) }
        var index = IdentifierSuggestionIndex(candidates)
        for _ in 0..<60 {
            let typed =
                Bool.random(using: &generator)
                ? typo(of: candidates.randomElement(using: &generator)!, &generator)
                : randomWord(&generator, length: 2...12)
            let excluded = Bool.random(using: &generator) ? candidates.randomElement(using: &generator) : nil
            #expect(
                index.closest(to: typed, excluding: excluded) == fullScan(typed, candidates, excluding: excluded),
                "typo \(typed) excluding \(excluded ?? "nothing")")
        }
    }

    @Test(arguments: 0..<3)
    func closest_amongThousandsOfCandidates_findsEveryOneEditTypoExactly(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let candidates = (0..<1_000).map { "service-\($0)-" + randomWord(&generator, length: 2...6) }
        var index = IdentifierSuggestionIndex(candidates)
        for _ in 0..<30 {
            let word = candidates.randomElement(using: &generator)!
            var scalars = Array(word)
            scalars.remove(at: Int.random(in: 0..<scalars.count, using: &generator))
            let typed = String(scalars)
            guard !candidates.contains(typed) else { continue }
            #expect(index.closest(to: typed) == fullScan(typed, candidates))
        }
    }

    @Test func closest_forThousandsOfUnknownIds_comparesABoundedNumberEach() {
        let count = 2_000
        let candidates = (0..<count).map { "service-\($0)" }
        var index = IdentifierSuggestionIndex(candidates)
        for number in 0..<count {
            _ = index.closest(to: "missing-\(number)", excluding: "service-\(number)")
        }
        // A full scan compares every candidate of a similar length: about 2,000 × 2,000.
        #expect(index.comparisons <= count * 3 * IdentifierSuggestionIndex.comparisonLimit)
    }

    @Test func closest_forARepeatedUnknownId_searchesOnce() {
        var index = IdentifierSuggestionIndex(["configuration", "database", "cache"])
        #expect(index.closest(to: "databse") == "database")
        let afterFirst = index.comparisons
        #expect(index.closest(to: "databse") == "database")
        #expect(index.comparisons == afterFirst)
    }

    @Test func closest_excludingTheBestCandidate_givesTheNextBest() {
        var index = IdentifierSuggestionIndex(["cache", "caches", "database"])
        #expect(index.closest(to: "cach") == "cache")
        #expect(index.closest(to: "cach", excluding: "cache") == "caches")
        #expect(index.closest(to: "confg", excluding: "configuration") == nil)
    }
}
