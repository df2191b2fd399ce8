import Testing

@testable import StartupCLI

/// A child's environment: shared variables made into C strings once, its own on top.
@Suite struct ChildEnvironmentTests {
    private let shared = SharedEnvironment(["PATH": "/bin", "A": "1", "B": "2"])

    /// The C strings a spawn would get, sorted; `nil` when they were refused.
    private func cStrings(_ environment: ChildEnvironment, adding extra: String? = nil) -> [String]? {
        environment.withCStrings(adding: extra) { envp -> [String]? in
            guard let envp else { return nil }
            var strings: [String] = []
            var position = 0
            while let string = envp[position] {
                strings.append(String(cString: string))
                position += 1
            }
            return strings.sorted()
        }
    }

    @Test func ownVariablesAreAddedOrReplaceShared() {
        let environment = ChildEnvironment(shared: shared, own: ["B": "3", "C": "4"])
        #expect(environment["B"] == "3")
        #expect(environment["A"] == "1")
        #expect(environment["D"] == nil)
        #expect(environment.variables == ["PATH": "/bin", "A": "1", "B": "3", "C": "4"])
        #expect(cStrings(environment, adding: "X=9") == ["A=1", "B=3", "C=4", "PATH=/bin", "X=9"])
    }

    @Test func withNothingOfItsOwn_theSharedVariablesAreAll() {
        #expect(cStrings(ChildEnvironment(shared: shared)) == ["A=1", "B=2", "PATH=/bin"])
        #expect(cStrings(ChildEnvironment([:])) == [])
        #expect(cStrings(ChildEnvironment([:]), adding: "X=9") == ["X=9"])
    }

    @Test func aNulByteInAVariable_isRefused() {
        #expect(cStrings(ChildEnvironment(shared: shared, own: ["K": "a\u{0}b"])) == nil)
        #expect(cStrings(ChildEnvironment(["K\u{0}": "v"])) == nil)
    }

    @Test func equalWhenTheChildGetsTheSameVariables() {
        let built = ChildEnvironment(shared: shared, own: ["B": "3"])
        let plain = ChildEnvironment(["PATH": "/bin", "A": "1", "B": "3"])
        #expect(built == plain)
        #expect(built.hashValue == plain.hashValue)
        #expect(built != ChildEnvironment(shared: shared))
    }
}
