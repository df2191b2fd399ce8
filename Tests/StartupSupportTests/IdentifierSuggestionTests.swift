import Testing

@testable import StartupSupport

@Suite struct IdentifierSuggestionTests {
    @Test(arguments: [
        ("cach", "cache"), ("dtabase", "database"), ("databsae", "database"), ("confg", "configuration"),
        ("Logging", "logging"),
    ])
    func closest_findsLikelyMeaning(typo: String, expected: String) {
        let ids = ["cache", "database", "configuration", "logging", "network"]
        #expect(IdentifierSuggestion.closest(to: typo, in: ids) == expected)
    }

    @Test func closest_whenNothingIsClose_returnsNil() {
        #expect(IdentifierSuggestion.closest(to: "xyzzy", in: ["cache", "database"] as [String]) == nil)
        #expect(IdentifierSuggestion.closest(to: "", in: ["cache"] as [String]) == nil)
    }

    @Test func editDistance_countsTranspositionAsOne() {
        #expect(IdentifierSuggestion.editDistance(Array("ab".unicodeScalars), Array("ba".unicodeScalars), limit: 5) == 1)
        #expect(IdentifierSuggestion.editDistance(Array("kitten".unicodeScalars), Array("sitting".unicodeScalars), limit: 5) == 3)
    }
}
