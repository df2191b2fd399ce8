import Testing

@testable import StartupCLI

@Suite struct MallocArenasTests {
    #if canImport(Glibc)
        /// glibc takes the pad (`mallopt` found and returning 1), as `startup` asks at start.
        @Test func padGrowth_isTakenByGlibc() {
            #expect(MallocArenas.padGrowth())
        }
    #endif
}
