import Testing

@testable import StartupJSON

@Suite struct DocumentFileTests {
    @Test func aDocumentThatNeverEnds_isRefusedAtTheLimit() throws {
        let error = #expect(throws: DocumentError.self) {
            try DocumentFile.bytes(atPath: "/dev/zero", kind: "a report file", limit: 1 << 20)
        }
        #expect(error?.code == .unreadable)
        #expect(error?.problems.map(\.message) == ["is larger than 1 MiB, the most a document may hold"])
    }

    @Test func aDocumentAtTheLimit_isRead() throws {
        #expect(try DocumentFile.bytes(atPath: "/dev/null", kind: "a report file", limit: 0).isEmpty)
    }
}
