import StartupJSON
import StartupSeededRandom
import Testing

@Suite struct JSONParserTests {
    // MARK: Values

    @Test(arguments: [("null", JSONValue.null), ("true", .bool(true)), ("false", .bool(false))])
    func parse_whenLiteral_returnsNullOrBoolean(text: String, expected: JSONValue) throws {
        let root = try parse(text)
        #expect(root == JSONElement(value: expected, location: at(1, 1)))
    }

    @Test func parse_whenString_returnsItsText() throws {
        let root = try parse(#"  "hello, world""#)
        #expect(root == JSONElement(value: .string("hello, world"), location: at(1, 3)))
    }

    @Test(arguments: [("[]", JSONValue.array([])), ("[ \n ]", .array([])), ("{}", .object([])), ("{\t\r\n}", .object([]))])
    func parse_whenContainerIsEmpty_returnsEmptyContainer(text: String, expected: JSONValue) throws {
        #expect(try parse(text).value == expected)
    }

    @Test func parse_whenDocumentSpansLines_locatesEveryKeyAndValue() throws {
        let text = """
            {
              "version": 1,
              "commands": [
                { "id": "a", "run": true },
                null
              ]
            }
            """
        let command = JSONValue.object([
            JSONMember(key: "id", keyLocation: at(4, 7), value: .string("a"), valueLocation: at(4, 13)),
            JSONMember(key: "run", keyLocation: at(4, 18), value: .bool(true), valueLocation: at(4, 25)),
        ])
        let one = try number("1")
        let expected = JSONValue.object([
            JSONMember(key: "version", keyLocation: at(2, 3), value: .number(one), valueLocation: at(2, 14)),
            JSONMember(
                key: "commands", keyLocation: at(3, 3),
                value: .array([
                    JSONElement(value: command, location: at(4, 5)),
                    JSONElement(value: .null, location: at(5, 5)),
                ]),
                valueLocation: at(3, 15)),
        ])
        #expect(try parse(text) == JSONElement(value: expected, location: at(1, 1)))
    }

    @Test func parse_whenObjectHasMembers_keepsDocumentOrder() throws {
        let root = try parse(#"{"z": 1, "a": 2, "m": 3, "b": 4}"#)
        #expect(try members(of: root).map(\.key) == ["z", "a", "m", "b"])
    }

    @Test func parse_whenObjectHasDuplicateKeys_keepsEveryMemberInOrder() throws {
        let root = try parse(#"{"id":"a","id":"b"}"#)
        #expect(
            try members(of: root) == [
                JSONMember(key: "id", keyLocation: at(1, 2), value: .string("a"), valueLocation: at(1, 7)),
                JSONMember(key: "id", keyLocation: at(1, 11), value: .string("b"), valueLocation: at(1, 16)),
            ])
    }

    @Test(arguments: [
        ("0", 0), ("-0", 0), ("42", 42), ("-7", -7),
        ("9223372036854775807", Int.max), ("-9223372036854775808", Int.min),
    ])
    func parse_whenIntegerLiteral_givesIntegerValue(text: String, expected: Int) throws {
        let number = try numberValue(of: parse(text))
        #expect(number.text == text)
        #expect(number.isIntegerLiteral)
        #expect(number.integerValue == expected)
        #expect(number.doubleValue == Double(expected))
    }

    @Test(arguments: [
        ("1.0", 1.0), ("2.5", 2.5), ("1e3", 1000), ("1E+3", 1000), ("-0.5e-2", -0.005), ("0e0", 0), ("10E-1", 1),
    ])
    func parse_whenLiteralHasFractionOrExponent_givesOnlyDoubleValue(text: String, expected: Double) throws {
        let number = try numberValue(of: parse(text))
        #expect(number.text == text)
        #expect(!number.isIntegerLiteral)
        #expect(number.integerValue == nil)
        #expect(number.doubleValue == expected)
    }

    @Test(arguments: ["9223372036854775808", "-9223372036854775809", "123456789012345678901234567890"])
    func parse_whenIntegerDoesNotFitInInt_keepsTextAndGivesNoIntegerValue(text: String) throws {
        let number = try numberValue(of: parse("[\(text)]").value.arrayElements()[0])
        #expect(number.text == text)
        #expect(number.isIntegerLiteral)
        #expect(number.integerValue == nil)
        #expect(number.doubleValue == Double(text))
    }

    @Test func parse_whenExponentExceedsDoubleRange_givesInfinity() throws {
        #expect(try numberValue(of: parse("1e999")).doubleValue == .infinity)
        #expect(try numberValue(of: parse("-1e999")).doubleValue == -.infinity)
        #expect(try numberValue(of: parse("1e-999")).doubleValue == 0)
    }

    @Test func number_whenLiteralsDifferInText_areNotEqual() throws {
        #expect(try number("1") != number("1.0"))
        #expect(try number("1e0") != number("1"))
        #expect(try numberValue(of: parse("1.50")).text == "1.50")
        #expect(try numberValue(of: parse("1.50")) == JSONNumber("1.50"))
    }

    @Test(arguments: ["", "+1", "01", ".5", "1.", "1e", "1e+", "-", "NaN", "Infinity", " 1", "1 ", "0x1F", "1.5.3", "--1"])
    func numberInit_whenTextIsNotAJSONNumber_returnsNil(text: String) {
        #expect(JSONNumber(text) == nil)
    }

    @Test func parse_whenShortEscapes_decodesEachOne() throws {
        let root = try parse(#""\"\\\/\b\f\n\r\t""#)
        #expect(root.value == .string("\"\\/\u{8}\u{C}\n\r\t"))
    }

    @Test func parse_whenUnicodeEscapes_decodesScalars() throws {
        let root = try parse(#""\u00e9\u20AC\u0041\u0000\u001f""#)
        #expect(root.value == .string("é€A\u{0}\u{1F}"))
    }

    @Test(arguments: [(#""\uD83D\uDE00""#, "😀"), (#""\ud83d\ude00""#, "😀"), (#""\uDBFF\uDFFF""#, "\u{10FFFF}")])
    func parse_whenSurrogatePairEscape_decodesOneScalar(text: String, expected: String) throws {
        let root = try parse(text)
        #expect(root.value == .string(expected))
        #expect(expected.unicodeScalars.count == 1)
    }

    @Test func parse_whenEscapesAndRawTextMix_keepsEverythingInOrder() throws {
        let root = try parse(#"["a\tb😀c\u00e9d\"", "plain é", "\\"]"#)
        #expect(try root.value.arrayElements().map(\.value) == [.string("a\tb😀céd\""), .string("plain é"), .string("\\")])
    }

    @Test func parse_whenTextIsNotASCII_countsColumnsInUnicodeScalars() throws {
        let root = try parse(#"{"é😀": "x"}"#)
        #expect(try members(of: root).first?.valueLocation == at(1, 8))
        #expect(throws: failure(.unexpectedCharacter("@", expected: .value), 1, 7)) { try parse(#"["é", @]"#) }
    }

    @Test func parse_whenByteOrderMarkStartsDocument_skipsItAndDoesNotCountIt() throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let root = try JSONParser.parse(bom + Array("[1]".utf8))
        let one = JSONElement(value: .number(try number("1")), location: at(1, 2))
        #expect(root == JSONElement(value: .array([one]), location: at(1, 1)))
        #expect(throws: failure(.invalidLiteral("x"), 1, 2)) {
            try JSONParser.parse(bom + Array("[x]".utf8))
        }
    }

    @Test func parse_whenByteOrderMarkIsNotAtStart_reportsIt() {
        #expect(throws: failure(.unexpectedCharacter("\u{FEFF}", expected: .value), 1, 2)) { try parse(" \u{FEFF}1") }
    }

    @Test func parse_whenLinesEndWithCRLF_countsEachPairAsOneLine() throws {
        let root = try parse("{\r\n\"a\": 1\r\n}")
        #expect(try members(of: root).first?.keyLocation == at(2, 1))
        #expect(throws: failure(.unexpectedCharacter("#", expected: .value), 3, 3)) { try parse("[\r\n1,\r\n  #]") }
    }

    @Test func parse_whenWhitespaceSurroundsRoot_returnsValueAtItsLocation() throws {
        #expect(try parse(" \t\r\n 1 \n\n").location == at(2, 2))
    }

    @Test(arguments: [
        (JSONValue.null, "null"), (.bool(false), "a boolean"), (.number(JSONNumber("1")!), "a number"),
        (.string(""), "a string"), (.array([]), "an array"), (.object([]), "an object"),
    ])
    func kindName_namesEachKindWithItsArticle(value: JSONValue, expected: String) {
        #expect(value.kindName == expected)
    }

    @Test func location_describesItselfAsLineColon() {
        #expect(at(3, 14).description == "3:14")
    }

    // MARK: Errors

    @Test(arguments: [([UInt8](), 1, 1), (Array("  \n ".utf8), 2, 2), ([0xEF, 0xBB, 0xBF], 1, 1)])
    func parse_whenInputHasNoValue_throwsEmptyInput(bytes: [UInt8], line: Int, column: Int) {
        #expect(throws: failure(.emptyInput, line, column)) { try JSONParser.parse(bytes) }
    }

    @Test func parse_whenTrailingComma_reportsLocationOfTheComma() {
        #expect(throws: failure(.trailingComma(before: "]"), 1, 6)) { try parse("[1, 2,]") }
        #expect(throws: failure(.trailingComma(before: "}"), 2, 9)) { try parse("{\n  \"a\": 1,\n}") }
        #expect(throws: failure(.trailingComma(before: "]"), 1, 3)) { try parse("[1, ]") }
    }

    @Test func parse_whenMemberIsFollowedByJunk_describesExpectationAndLocation() throws {
        let text = """
            {
              "a": 1,
              "b": [1,2] x
            }
            """
        let error = try #require(throws: JSONSyntaxError.self) { try parse(text) }
        #expect(error == failure(.unexpectedCharacter("x", expected: .commaOrObjectEnd), 3, 14))
        #expect(error.description == "line 3, column 14: expected ',' or '}' after object member, found 'x'")
    }

    @Test func parse_whenArrayElementIsFollowedByJunk_reportsExpectation() {
        #expect(throws: failure(.unexpectedCharacter("2", expected: .commaOrArrayEnd), 1, 4)) { try parse("[1 2]") }
        #expect(throws: failure(.unexpectedCharacter("}", expected: .commaOrArrayEnd), 1, 3)) { try parse("[1}") }
    }

    @Test func parse_whenColonIsMissing_reportsExpectation() throws {
        #expect(throws: failure(.unexpectedCharacter("1", expected: .colon), 1, 6)) { try parse(#"{"a" 1}"#) }
        let error = try #require(throws: JSONSyntaxError.self) { try parse(#"{"a" = 1}"#) }
        #expect(error.description == "line 1, column 6: expected ':' after object key, found '='; use ':' between a key and its value")
    }

    @Test func parse_whenKeyIsNotAString_reportsExpectationWithHint() throws {
        let error = try #require(throws: JSONSyntaxError.self) { try parse("{a: 1}") }
        #expect(error == failure(.unexpectedCharacter("a", expected: .memberKeyOrObjectEnd), 1, 2))
        #expect(error.message == "expected a string key or '}', found 'a'; object keys must be strings in double quotes")
        #expect(throws: failure(.unexpectedCharacter("b", expected: .memberKey), 1, 9)) { try parse(#"{"a":1, b:2}"#) }
        #expect(throws: failure(.unexpectedCharacter("'", expected: .memberKeyOrObjectEnd), 1, 2)) { try parse("{'a':1}") }
    }

    @Test func parse_whenCommentIsPresent_reportsSlashWithHint() throws {
        let error = try #require(throws: JSONSyntaxError.self) { try parse("[1, // one\n2]") }
        #expect(error == failure(.unexpectedCharacter("/", expected: .value), 1, 5))
        #expect(error.message == "expected a value, found '/'; comments are not allowed in JSON")
    }

    @Test(arguments: [
        ("[", JSONSyntaxError.Expectation.valueOrArrayEnd, 1, 2), ("[1", .commaOrArrayEnd, 1, 3), ("[1,", .value, 1, 4),
        ("{", .memberKeyOrObjectEnd, 1, 2), (#"{"a""#, .colon, 1, 5), (#"{"a":"#, .value, 1, 6),
        (#"{"a":1"#, .commaOrObjectEnd, 1, 7), (#"{"a":1,"#, .memberKey, 1, 8), ("{\"a\":1,\n", .memberKey, 2, 1),
    ])
    func parse_whenInputEndsEarly_reportsWhatWasExpected(
        text: String, expected: JSONSyntaxError.Expectation, line: Int, column: Int
    ) {
        #expect(throws: failure(.unexpectedEndOfInput(expected: expected), line, column)) { try parse(text) }
    }

    @Test(arguments: [
        ("[True]", "True"), ("[nul]", "nul"), ("[nulll]", "nulll"), ("[truex]", "truex"), ("[undefined]", "undefined"),
        ("[NaN]", "NaN"), ("[Infinity]", "Infinity"), ("[None]", "None"),
    ])
    func parse_whenBareWordIsNotALiteral_reportsTheWord(text: String, word: String) {
        #expect(throws: failure(.invalidLiteral(word), 1, 2)) { try parse(text) }
    }

    @Test func parse_whenNaNOrInfinity_saysTheyAreNotAllowed() throws {
        let nan = try #require(throws: JSONSyntaxError.self) { try parse("NaN") }
        #expect(nan.message == "'NaN' is not allowed in JSON; numbers must be finite")
        let infinity = try #require(throws: JSONSyntaxError.self) { try parse("-Infinity") }
        #expect(infinity.message == "invalid number '-Infinity'; NaN and Infinity are not allowed in JSON")
    }

    @Test func parse_whenBareWordIsVeryLong_shortensItInTheError() {
        let word = String(repeating: "x", count: 1_000)
        #expect(throws: failure(.invalidLiteral(String(repeating: "x", count: 32) + "…"), 1, 1)) { try parse(word) }
    }

    @Test(arguments: [
        ("01", JSONSyntaxError.NumberProblem.leadingZero), ("-01", .leadingZero), ("00", .leadingZero),
        ("-", .missingDigitAfterMinus), ("-Infinity", .missingDigitAfterMinus), ("-.5", .missingDigitAfterMinus),
        ("1.", .missingFractionDigits), ("1.e5", .missingFractionDigits), ("1e", .missingExponentDigits),
        ("1e+", .missingExponentDigits), ("+1", .leadingPlus), (".5", .missingIntegerPart),
        ("1.5.3", .unexpectedCharacters), ("0x1F", .unexpectedCharacters), ("12px", .unexpectedCharacters),
        ("1-2", .unexpectedCharacters),
    ])
    func parse_whenNumberIsMalformed_reportsTheNumberAndProblem(text: String, problem: JSONSyntaxError.NumberProblem) {
        #expect(throws: failure(.invalidNumber(text, problem), 1, 7)) { try parse(#"{"n": \#(text)}"#) }
    }

    @Test func parse_whenNumberHasLeadingZero_explainsIt() throws {
        let error = try #require(throws: JSONSyntaxError.self) { try parse("[\n  007\n]") }
        #expect(error.description == "line 2, column 3: invalid number '007': leading zeros are not allowed")
    }

    @Test(arguments: ["[+]", "[.]"])
    func parse_whenPlusOrDotStandsAlone_reportsUnexpectedCharacter(text: String) {
        let character = text.unicodeScalars.dropFirst().first!
        #expect(throws: failure(.unexpectedCharacter(character, expected: .valueOrArrayEnd), 1, 2)) { try parse(text) }
    }

    @Test func parse_whenStringContainsControlCharacter_reportsIt() throws {
        #expect(throws: failure(.controlCharacterInString(0x09), 1, 4)) { try parse("[\"a\tb\"]") }
        #expect(throws: failure(.controlCharacterInString(0x00), 1, 2)) { try parse("\"\u{0}\"") }
        let error = try #require(throws: JSONSyntaxError.self) { try parse("{\"a\": \"line one\nline two\"}") }
        #expect(error == failure(.controlCharacterInString(0x0A), 1, 16))
        #expect(error.message.contains(#"\n"#))
    }

    @Test func parse_whenStringIsNotClosed_reportsTheOpeningQuote() {
        #expect(throws: failure(.unterminatedString, 1, 5)) { try parse(#"[1, "abc"#) }
        #expect(throws: failure(.unterminatedString, 1, 1)) { try parse(#""abc\"#) }
        #expect(throws: failure(.unterminatedString, 1, 1)) { try parse(#""abc\""#) }
    }

    @Test func parse_whenEscapeIsNotValid_reportsTheBackslash() {
        #expect(throws: failure(.invalidEscape("x"), 1, 3)) { try parse(#""a\x""#) }
        #expect(throws: failure(.invalidEscape("'"), 1, 2)) { try parse(#""\'""#) }
        #expect(throws: failure(.invalidEscape("\n"), 1, 2)) { try parse("\"\\\n\"") }
        #expect(throws: failure(.invalidEscape("é"), 1, 2)) { try parse(#""\é""#) }
    }

    @Test(arguments: [(#""\u12G4""#, 1, 2), (#""\u12""#, 1, 2), (#""ab\u"#, 1, 4), (#""\uD800\uZZZZ""#, 1, 8)])
    func parse_whenUnicodeEscapeIsMalformed_reportsTheBackslash(text: String, line: Int, column: Int) {
        #expect(throws: failure(.invalidUnicodeEscape, line, column)) { try parse(text) }
    }

    @Test(arguments: [
        (#""\uD800""#, UInt16(0xD800), 2), (#""x\uDC00""#, 0xDC00, 3), (#""\uD800\u0041""#, 0xD800, 2),
        (#""\uD800x""#, 0xD800, 2), (#""\uD800\uD800""#, 0xD800, 2), (#""\uDFFF\uD800""#, 0xDFFF, 2),
    ])
    func parse_whenSurrogateEscapeIsAlone_reportsLoneSurrogate(text: String, unit: UInt16, column: Int) {
        #expect(throws: failure(.loneSurrogate(unit), 1, column)) { try parse(text) }
    }

    @Test(
        arguments: [
            ([0x22, 0xFF, 0x22], UInt8(0xFF), 1, 2),  // never valid in UTF-8
            ([0x22, 0x80, 0x22], 0x80, 1, 2),  // continuation byte without a lead
            ([0x22, 0xC0, 0x80, 0x22], 0xC0, 1, 2),  // overlong encoding of U+0000
            ([0x22, 0xE0, 0x80, 0x80, 0x22], 0xE0, 1, 2),  // overlong three-byte form
            ([0x22, 0xED, 0xA0, 0x80, 0x22], 0xED, 1, 2),  // UTF-16 surrogate encoded as UTF-8
            ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 0xF4, 1, 2),  // beyond U+10FFFF
            ([0x22, 0x61, 0xE2, 0x82, 0x22], 0xE2, 1, 3),  // truncated before the quote
            ([0x22, 0xE2, 0x82], 0xE2, 1, 2),  // truncated at the end
            ([0x5B, 0xFF, 0x5D], 0xFF, 1, 2),  // outside a string
            ([0x7B, 0x22, 0xC3, 0xA9, 0xFE, 0x22], 0xFE, 1, 4),  // in a key, after a valid "é"
            ([0x5B, 0x22, 0xC3, 0xA9, 0x22, 0x2C, 0x0A, 0x20, 0xF8, 0x5D], 0xF8, 2, 2),
            ([0x22, 0x5C, 0xFF, 0x22], 0xFF, 1, 3),  // after a backslash
            ([0x5B, 0x5D, 0xC3], 0xC3, 1, 3),  // trailing
        ] as [([UInt8], UInt8, Int, Int)])
    func parse_whenBytesAreNotUTF8_reportsTheFirstBadByte(bytes: [UInt8], byte: UInt8, line: Int, column: Int) throws {
        let error = try #require(throws: JSONSyntaxError.self) { try JSONParser.parse(bytes) }
        #expect(error == failure(.invalidUTF8(byte: byte), line, column))
        #expect(error.message.contains("UTF-8"))
    }

    @Test func parse_whenCharacterOutsideStringsIsNotASCII_namesIt() throws {
        let space = try #require(throws: JSONSyntaxError.self) { try parse("[1,\u{A0}2]") }
        #expect(space == failure(.unexpectedCharacter("\u{A0}", expected: .value), 1, 4))
        #expect(space.message == "expected a value, found U+00A0")
        let comma = try #require(throws: JSONSyntaxError.self) { try parse("[1，2]") }
        #expect(comma == failure(.unexpectedCharacter("，", expected: .commaOrArrayEnd), 1, 3))
        #expect(comma.message == "expected ',' or ']' after array element, found '，' (U+FF0C)")
    }

    @Test func parse_whenNestingReachesLimit_succeedsAndOneMoreLevelFails() throws {
        let deepest = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        var value = try parse(deepest).value
        var depth = 0
        while case .array(let elements) = value {
            depth += 1
            value = elements.first?.value ?? .null
        }
        #expect(depth == 64)
        let tooDeep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(throws: failure(.nestingTooDeep(limit: 64), 1, 65)) { try parse(tooDeep) }
        let objects = String(repeating: #"{"a":"#, count: 3) + "1}}}"
        #expect(throws: failure(.nestingTooDeep(limit: 2), 1, 11)) { try parse(objects, maxDepth: 2) }
    }

    @Test func parse_whenMaxDepthIsZero_acceptsOnlyScalars() throws {
        #expect(try parse("1", maxDepth: 0).value == .number(number("1")))
        #expect(throws: failure(.nestingTooDeep(limit: 0), 1, 1)) { try parse("[]", maxDepth: 0) }
    }

    @Test func parse_whenMillionOpeningBrackets_throwsNestingTooDeepWithoutCrashing() {
        let brackets = [UInt8](repeating: UInt8(ascii: "["), count: 1_000_000)
        #expect(throws: failure(.nestingTooDeep(limit: 64), 1, 65)) { try JSONParser.parse(brackets) }
        let mixed = Array(String(repeating: #"[{"a":"#, count: 200_000).utf8)
        #expect(throws: failure(.nestingTooDeep(limit: 64), 1, 6 * 32 + 1)) { try JSONParser.parse(mixed) }
    }

    @Test func parse_whenLimitIsRaised_parsesDeepNestingWithoutRecursing() throws {
        let depth = 2_000
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        var value = try parse(text, maxDepth: depth).value
        var levels = 0
        while case .array(let elements) = value {
            levels += 1
            value = elements.first?.value ?? .null
        }
        #expect(levels == depth)
    }

    @Test(arguments: [("{} x", "x", 1, 4), ("1 2", "2", 1, 3), ("{}}", "}", 1, 3), ("[]\n\n,", ",", 3, 1), ("null\u{0}", "\u{0}", 1, 5)])
    func parse_whenContentFollowsTheValue_reportsTrailingContent(text: String, found: String, line: Int, column: Int) {
        let scalar = found.unicodeScalars.first!
        #expect(throws: failure(.trailingContent(scalar), line, column)) { try parse(text) }
    }

    @Test(arguments: [("]", "]", 1, 1), (#"{"a": }"#, "}", 1, 7), ("[1,,2]", ",", 1, 4), (":", ":", 1, 1)])
    func parse_whenValueIsMissing_reportsWhatWasFound(text: String, found: String, line: Int, column: Int) {
        let scalar = found.unicodeScalars.first!
        let expected: JSONSyntaxError.Expectation = .value
        #expect(throws: failure(.unexpectedCharacter(scalar, expected: expected), line, column)) { try parse(text) }
    }

    @Test func errorMessages_readAsInstructions() {
        let cases: [(JSONSyntaxError.Reason, String)] = [
            (.emptyInput, "the document is empty; expected a JSON value such as an object '{...}'"),
            (.invalidUTF8(byte: 0xFF), "invalid UTF-8 (byte 0xFF); the file must be saved as UTF-8"),
            (.unexpectedEndOfInput(expected: .commaOrObjectEnd), "unexpected end of input; expected ',' or '}' after object member"),
            (.unterminatedString, "string is not closed; expected '\"' before the end of input"),
            (.controlCharacterInString(0x09), #"control character U+0009 inside a string; write it as \t"#),
            (.controlCharacterInString(0x01), #"control character U+0001 inside a string; write it as \u0001"#),
            (.invalidEscape("x"), #"invalid escape '\x' in string; valid escapes are \" \\ \/ \b \f \n \r \t and \uXXXX"#),
            (.invalidUnicodeEscape, #"invalid \u escape; expected four hexadecimal digits after \u"#),
            (
                .loneSurrogate(0xD83D),
                #"\uD83D is the first half of a UTF-16 surrogate pair; it must be followed by a \uDC00-\uDFFF escape"#
            ),
            (.loneSurrogate(0xDE00), #"\uDE00 is the second half of a UTF-16 surrogate pair; it must follow a \uD800-\uDBFF escape"#),
            (.trailingComma(before: "}"), "trailing comma before '}'; remove the ','"),
            (.nestingTooDeep(limit: 64), "arrays and objects are nested more than 64 levels deep"),
            (.trailingContent("x"), "unexpected 'x' after the end of the top-level value; a JSON document holds exactly one value"),
            (
                .invalidLiteral("True"),
                "unknown word 'True'; expected a value (true, false and null are lowercase; strings need double quotes)"
            ),
        ]
        for (reason, message) in cases {
            let error = JSONSyntaxError(reason, at: at(2, 5))
            #expect(error.message == message)
            #expect(error.description == "line 2, column 5: " + message)
        }
    }

    // MARK: Seeded properties

    @Test(arguments: 0..<8)
    func parse_whenDocumentIsGenerated_returnsTheGeneratedValueAtTheRightLocations(block: Int) throws {
        for seed in UInt64(block * 200)..<UInt64(block * 200 + 200) {
            var generator = DocumentGenerator(seed: seed)
            let (expected, text) = generator.document()
            let root = try parse(text)
            #expect(stripped(root.value) == stripped(expected), "seed \(seed): \(text)")
            checkLocations(of: root, in: text, seed: seed)
        }
    }

    @Test(arguments: 0..<8)
    func parse_whenGeneratedDocumentIsMutated_returnsOrThrowsWithALocationInsideTheDocument(block: Int) throws {
        for seed in UInt64(block * 500)..<UInt64(block * 500 + 500) {
            var generator = DocumentGenerator(seed: seed)
            var bytes = Array(generator.document().text.utf8)
            generator.mutate(&bytes)
            let lineCount = bytes.count(where: { $0 == UInt8(ascii: "\n") }) + 1
            do {
                let root = try JSONParser.parse(bytes)
                let text = String(decoding: bytes, as: UTF8.self)
                #expect(Array(text.utf8) == bytes, "seed \(seed): accepted bytes that are not UTF-8")
                checkLocations(of: root, in: text, seed: seed)
            } catch {
                #expect((1...lineCount).contains(error.location.line), "seed \(seed): \(error)")
                #expect((1...bytes.count + 1).contains(error.location.column), "seed \(seed): \(error)")
                #expect(!error.message.isEmpty)
            }
        }
    }
}

// MARK: - Helpers

private func parse(_ text: String, maxDepth: Int = 64) throws(JSONSyntaxError) -> JSONElement {
    try JSONParser.parse(Array(text.utf8), maxDepth: maxDepth)
}

private func at(_ line: Int, _ column: Int) -> JSONLocation {
    JSONLocation(line: line, column: column)
}

private func failure(_ reason: JSONSyntaxError.Reason, _ line: Int, _ column: Int) -> JSONSyntaxError {
    JSONSyntaxError(reason, at: at(line, column))
}

private struct NotThatKind: Error {}

private func number(_ text: String) throws -> JSONNumber {
    try #require(JSONNumber(text))
}

private func numberValue(of element: JSONElement) throws -> JSONNumber {
    guard case .number(let number) = element.value else { throw NotThatKind() }
    return number
}

private func members(of element: JSONElement) throws -> [JSONMember] {
    guard case .object(let members) = element.value else { throw NotThatKind() }
    return members
}

extension JSONValue {
    fileprivate func arrayElements() throws -> [JSONElement] {
        guard case .array(let elements) = self else { throw NotThatKind() }
        return elements
    }
}

/// The value with every location zeroed, to compare structure and content only.
private func stripped(_ value: JSONValue) -> JSONValue {
    let nowhere = JSONLocation(line: 0, column: 0)
    switch value {
    case .array(let elements):
        return .array(elements.map { JSONElement(value: stripped($0.value), location: nowhere) })
    case .object(let members):
        return .object(
            members.map {
                JSONMember(key: $0.key, keyLocation: nowhere, value: stripped($0.value), valueLocation: nowhere)
            })
    default:
        return value
    }
}

/// Checks that every location in `root` points at the first character of what it locates.
private func checkLocations(of root: JSONElement, in text: String, seed: UInt64) {
    let lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map(Array.init)
    func scalar(at location: JSONLocation) -> Unicode.Scalar? {
        guard location.line >= 1, location.line <= lines.count else { return nil }
        let line = lines[location.line - 1]
        guard location.column >= 1, location.column <= line.count else { return nil }
        return line[location.column - 1]
    }
    func check(_ value: JSONValue, at location: JSONLocation) {
        let first = scalar(at: location)
        let fits: Bool
        switch value {
        case .null: fits = first == "n"
        case .bool(let flag): fits = first == (flag ? "t" : "f")
        case .number: fits = first == "-" || ("0"..."9").contains(first ?? " ")
        case .string: fits = first == "\""
        case .array(let elements):
            fits = first == "["
            for element in elements { check(element.value, at: element.location) }
        case .object(let members):
            fits = first == "{"
            for member in members {
                #expect(scalar(at: member.keyLocation) == "\"", "seed \(seed): key \(member.key) at \(member.keyLocation)")
                check(member.value, at: member.valueLocation)
            }
        }
        #expect(fits, "seed \(seed): \(value.kindName) at \(location) starts with \(String(describing: first))")
    }
    check(root.value, at: root.location)
}

private struct DocumentGenerator {
    var random: SeededGenerator

    init(seed: UInt64) {
        random = SeededGenerator(seed: seed)
    }

    private static let scalars: [Unicode.Scalar] = [
        "a", "Z", "0", " ", "\"", "\\", "/", "\u{0}", "\u{8}", "\u{1F}", "\n", "\t", "\r", "\u{7F}",
        "é", "€", "😀", "\u{2028}", "\u{FEFF}", "\u{10FFFF}", "\u{E000}",
    ]
    private static let keys = ["id", "run", "é", "", "dependencies", "😀"]
    private static let whitespace = ["", "", " ", "\t", "\n", "\r\n", "  \n  "]

    mutating func document() -> (value: JSONValue, text: String) {
        var text = space()
        let value = generate(depth: 0, into: &text)
        text += space()
        return (value, text)
    }

    private mutating func space() -> String {
        Self.whitespace.randomElement(using: &random)!
    }

    private mutating func generate(depth: Int, into text: inout String) -> JSONValue {
        let nowhere = JSONLocation(line: 0, column: 0)
        let kind = depth >= 4 ? Int.random(in: 0..<4, using: &random) : Int.random(in: 0..<6, using: &random)
        switch kind {
        case 0:
            if Bool.random(using: &random) {
                text += "null"
                return .null
            }
            let flag = Bool.random(using: &random)
            text += flag ? "true" : "false"
            return .bool(flag)
        case 1:
            let literal = numberLiteral()
            text += literal
            guard let number = JSONNumber(literal) else {
                Issue.record("generated number \(literal) was rejected")
                return .null
            }
            return .number(number)
        case 2, 3:
            let string = stringValue()
            text += quoted(string)
            return .string(string)
        case 4:
            text += "["
            var elements: [JSONElement] = []
            for index in 0..<Int.random(in: 0...4, using: &random) {
                text += index == 0 ? space() : space() + "," + space()
                elements.append(JSONElement(value: generate(depth: depth + 1, into: &text), location: nowhere))
            }
            text += space() + "]"
            return .array(elements)
        default:
            text += "{"
            var members: [JSONMember] = []
            for index in 0..<Int.random(in: 0...4, using: &random) {
                text += index == 0 ? space() : space() + "," + space()
                let key = Bool.random(using: &random) ? Self.keys.randomElement(using: &random)! : stringValue()
                text += quoted(key) + space() + ":" + space()
                let value = generate(depth: depth + 1, into: &text)
                members.append(JSONMember(key: key, keyLocation: nowhere, value: value, valueLocation: nowhere))
            }
            text += space() + "}"
            return .object(members)
        }
    }

    private mutating func numberLiteral() -> String {
        var literal = Bool.random(using: &random) ? "-" : ""
        if Int.random(in: 0..<4, using: &random) == 0 {
            literal += "0"
        } else {
            literal += String(Int.random(in: 1...9, using: &random))
            for _ in 0..<Int.random(in: 0...24, using: &random) { literal += String(Int.random(in: 0...9, using: &random)) }
        }
        if Bool.random(using: &random) {
            literal += "." + String(Int.random(in: 0...99_999, using: &random))
        }
        if Bool.random(using: &random) {
            literal += ["e", "E"].randomElement(using: &random)! + ["", "+", "-"].randomElement(using: &random)!
            literal += String(Int.random(in: 0...400, using: &random))
        }
        return literal
    }

    private mutating func stringValue() -> String {
        var string = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...8, using: &random) {
            string.append(Self.scalars.randomElement(using: &random)!)
        }
        return String(string)
    }

    /// The string as a JSON literal, each scalar written raw or escaped at random where both are valid.
    private mutating func quoted(_ string: String) -> String {
        var text = "\""
        for scalar in string.unicodeScalars {
            let short: String? =
                switch scalar {
                case "\"": #"\""#
                case "\\": #"\\"#
                case "/": #"\/"#
                case "\u{8}": #"\b"#
                case "\u{C}": #"\f"#
                case "\n": #"\n"#
                case "\r": #"\r"#
                case "\t": #"\t"#
                default: nil
                }
            let mustEscape = scalar == "\"" || scalar == "\\" || scalar.value < 0x20
            switch Int.random(in: 0..<3, using: &random) {
            case 0 where !mustEscape:
                text.unicodeScalars.append(scalar)
            case 1 where short != nil:
                text += short!
            default:
                text += unicodeEscape(scalar)
            }
        }
        return text + "\""
    }

    private mutating func unicodeEscape(_ scalar: Unicode.Scalar) -> String {
        let uppercase = Bool.random(using: &random)
        func hex(_ unit: UInt16) -> String {
            let digits = String(unit, radix: 16, uppercase: uppercase)
            return "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
        }
        return String(scalar).utf16.map(hex).joined()
    }

    /// Damages the document with one to three random edits: replaced, inserted or deleted bytes, or truncation.
    mutating func mutate(_ bytes: inout [UInt8]) {
        let interesting: [UInt8] = [
            0x00, 0x0A, 0x20, 0x22, 0x2C, 0x2D, 0x2E, 0x30, 0x3A, 0x5B, 0x5C, 0x5D, 0x65, 0x75, 0x7B, 0x7D,
            0x80, 0xBF, 0xC0, 0xC3, 0xE2, 0xED, 0xEF, 0xF0, 0xF4, 0xFF,
        ]
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let byte =
                Bool.random(using: &random)
                ? interesting.randomElement(using: &random)!
                : UInt8.random(in: 0...255, using: &random)
            let position = Int.random(in: 0...bytes.count, using: &random)
            switch Int.random(in: 0..<4, using: &random) {
            case 0 where position < bytes.count: bytes[position] = byte
            case 1 where position < bytes.count: bytes.remove(at: position)
            case 2: bytes.removeSubrange(position...)
            default: bytes.insert(byte, at: position)
            }
        }
    }
}
