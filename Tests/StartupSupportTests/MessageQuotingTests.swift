import Testing

@testable import StartupSupport

@Suite struct MessageQuotingTests {
    @Test(arguments: [
        ("cache", #""cache""#),
        ("a\u{1B}[31mred", #""a\u001B[31mred""#),
        ("tab\there\nnext\r", #""tab\there\nnext\r""#),
        (#"say "hi" \ bye"#, #""say \"hi\" \\ bye""#),
        ("c1\u{9B}31m del\u{7F}", #""c1\u009B31m del\u007F""#),
        ("bidi\u{202E}txt.exe\u{2066}", #""bidi\u202Etxt.exe\u2066""#),
        ("café 日本 🚀", #""café 日本 🚀""#),
    ])
    func quoted_escapesControlCharactersAsJSONDoes(text: String, expected: String) {
        #expect(MessageQuoting.quoted(text) == expected)
    }

    @Test func escaped_keepsQuotesButEscapesControls() {
        #expect(MessageQuoting.escaped(#"a"b"# + "\u{1B}") == #"a"b\u001B"#)
    }

    @Test func quoted_whenLongerThanTheLimit_cutsWithTheWholeLength() {
        let limit = MessageQuoting.lengthLimit
        let exact = String(repeating: "x", count: limit)
        #expect(MessageQuoting.quoted(exact) == "\"" + exact + "\"")
        let huge = String(repeating: "y", count: 10 * 1024 * 1024)
        #expect(MessageQuoting.quoted(huge) == "\"" + String(repeating: "y", count: limit) + "…\" (10485760 characters)")
        #expect(MessageQuoting.escaped(exact + "z") == exact + "… (201 characters)")
    }
}
