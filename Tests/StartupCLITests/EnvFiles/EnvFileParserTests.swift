import Testing

@testable import StartupCLI

/// The env-file syntax, rule by rule: `NAME=value` lines, `export `, comments, quoting and escapes, and a message with
/// the line's number for each line that is not one.
@Suite struct EnvFileParserTests {
    private func parse(_ text: String) -> (variables: [String: String], problems: [EnvFileProblem]) {
        EnvFileParser.parse(Array(text.utf8))
    }

    /// The variables of a file that must be valid.
    private func variables(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [String: String] {
        let (variables, problems) = parse(text)
        #expect(problems.isEmpty, "\(problems)", sourceLocation: sourceLocation)
        return variables
    }

    /// The one problem of a file with one bad line.
    private func problem(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> EnvFileProblem? {
        let (_, problems) = parse(text)
        #expect(problems.count == 1, "\(problems)", sourceLocation: sourceLocation)
        return problems.first
    }

    @Test func parse_keyValueLines_withBlankLinesAndComments() {
        let text = """
            # the database
            DATABASE_URL=postgres://localhost/app

              # indented comment
            PORT=5433
            _private1=x
            """
        #expect(variables(text) == ["DATABASE_URL": "postgres://localhost/app", "PORT": "5433", "_private1": "x"])
    }

    @Test func parse_anEmptyFile_orOnlyCommentsAndBlanks_definesNothing() {
        #expect(variables("") == [:])
        #expect(variables("\n\n   \n\t\n") == [:])
        #expect(variables("# nothing\n#MORE=1\n") == [:])
    }

    @Test func parse_whitespaceAroundTheLineAndTheKey_isIgnored() {
        #expect(variables("  \tA = 1  \nB\t=\t2\t\n") == ["A": "1", "B": "2"])
    }

    @Test func parse_exportPrefix_isDropped_butExportAsANameIsAName() {
        #expect(variables("export A=1\nexport\t  B=2\nexport=3\nexported=4") == ["A": "1", "B": "2", "export": "3", "exported": "4"])
    }

    @Test func parse_unquotedValue_isTrimmed_andEndsAtSpaceHash() {
        #expect(variables("A=  hello world  \n") == ["A": "hello world"])
        #expect(variables("A=value # a comment") == ["A": "value"])
        #expect(variables("A=value\t# a comment") == ["A": "value"])
        #expect(variables("A=a#b") == ["A": "a#b"], "a # without whitespace before it is part of the value")
        #expect(variables("A=#b") == ["A": "#b"])
        #expect(variables("A= # only a comment") == ["A": ""])
        #expect(variables("A=") == ["A": ""])
        #expect(variables("A=x=y") == ["A": "x=y"], "the first = ends the name")
        #expect(variables("A=it's \"quoted\" inside") == ["A": "it's \"quoted\" inside"])
    }

    @Test func parse_singleQuotes_areLiteral() {
        #expect(variables(#"A='a \n b # not a comment \\ $HOME'"#) == ["A": #"a \n b # not a comment \\ $HOME"#])
        #expect(variables("A=''") == ["A": ""])
        #expect(variables("A='  padded  '   # comment") == ["A": "  padded  "])
        #expect(variables(#"A='say "hi"'"#) == ["A": #"say "hi""#])
    }

    @Test func parse_doubleQuotes_readThreeEscapes_andKeepTheBackslashOfOthers() {
        #expect(variables(#"A="line one\nline two""#) == ["A": "line one\nline two"])
        #expect(variables(#"A="say \"hi\"""#) == ["A": #"say "hi""#])
        #expect(variables(#"A="back\\slash""#) == ["A": #"back\slash"#])
        #expect(variables(#"A="C:\temp\x""#) == ["A": #"C:\temp\x"#], "unknown escapes keep their backslash")
        #expect(variables(##"A="# kept" # dropped"##) == ["A": "# kept"])
        #expect(variables(#"A="""#) == ["A": ""])
        #expect(variables(#"A = "  padded  ""#) == ["A": "  padded  "])
    }

    @Test func parse_doesNotInterpolate() {
        #expect(variables("HOME_COPY=$HOME\nB=\"${A}\"\nC='$(id)'") == ["HOME_COPY": "$HOME", "B": "${A}", "C": "$(id)"])
    }

    @Test func parse_aLaterLine_winsOverAnEarlierOne() {
        #expect(variables("A=1\nA=2\n") == ["A": "2"])
    }

    @Test func parse_crlfLineEndings_andAByteOrderMark_areRead() {
        #expect(variables("\u{FEFF}A=1\r\nB=\"two\"\r\n# c\r\n\r\nC='3'\r\n") == ["A": "1", "B": "two", "C": "3"])
    }

    @Test func parse_unicodeValues_areKept() {
        #expect(variables("GREETING=grüß dich 👋") == ["GREETING": "grüß dich 👋"])
    }

    @Test func parse_missingEquals_namesTheLine() {
        #expect(problem("A=1\n\nexport PORT\n") == EnvFileProblem(line: 3, message: #"missing "=" in "export PORT"; write NAME=value"#))
    }

    @Test func parse_missingName_isAProblem() {
        #expect(problem("=1") == EnvFileProblem(line: 1, message: #"missing the variable's name before "=" in "=1""#))
    }

    @Test(arguments: ["1A", "MY KEY", "A-B", "A.B", "ÄPFEL", "$A"])
    func parse_invalidName_isAProblem(name: String) {
        #expect(
            problem("\(name)=1")?.message
                == "invalid variable name \"\(name)\": a name is letters, digits and underscores, not starting with a digit")
    }

    @Test func parse_unterminatedQuotes_areProblems_aQuotedValueIsOneLine() {
        #expect(
            problem("A='open\nB=2")
                == EnvFileProblem(line: 1, message: "unterminated single-quoted value: add the closing ' (a quoted value is one line)"))
        // The next line is a line of its own, not the rest of the value.
        #expect(
            parse("B=2\nA=\"open\nstill\"").problems == [
                EnvFileProblem(line: 2, message: #"unterminated double-quoted value: add the closing " (a quoted value is one line)"#),
                EnvFileProblem(line: 3, message: #"missing "=" in "still\""; write NAME=value"#),
            ])
        #expect(problem(#"A="ends with an escaped quote\""#)?.line == 1)
    }

    @Test func parse_textAfterTheClosingQuote_isAProblem_exceptAComment() {
        #expect(
            problem(#"A="one"two"#)?.message
                == #"unexpected text "two" after the closing " of a double-quoted value; only a comment (" #") may follow it"#)
        #expect(problem("A='one' two")?.message.hasPrefix(#"unexpected text " two" after the closing '"#) == true)
        #expect(problem("A='one'#no-space")?.line == 1)
        #expect(variables("A='one'  # fine") == ["A": "one"])
    }

    @Test func parse_everyBadLine_isReported_withItsNumber_andTheGoodOnesRead() {
        let (variables, problems) = parse("A=1\nbad line\nB=2\n3=x\n")
        #expect(variables == ["A": "1", "B": "2"])
        #expect(problems.map(\.line) == [2, 4])
    }

    @Test func parse_controlCharactersInMessages_areEscaped_andLongLinesCut() throws {
        let escape = try #require(problem("\u{1B}[31mRED\u{7}"))
        #expect(escape.message == #"missing "=" in "\u001B[31mRED\u0007"; write NAME=value"#)
        let long = try #require(problem(String(repeating: "x", count: 100_000)))
        #expect(long.message.contains("…\" (100000 characters)"))
        #expect(long.message.count < 400)
    }

    @Test func parse_invalidUTF8_andNUL_areProblems_notCrashes() {
        #expect(
            EnvFileParser.parse(Array("A=1\nB=".utf8) + [0xFF, 0xFE]).problems == [
                EnvFileProblem(line: 2, message: "the line is not valid UTF-8")
            ])
        #expect(problem("A=x\u{0}y")?.message == "the value of A contains a NUL character, which no environment variable can hold")
        #expect(problem("A=\"x\\\u{0}\"")?.line == 1)
    }
}
