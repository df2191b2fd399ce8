/// One path or glob of a command's `"watch"`, relative to the manifest's folder, compiled for matching:
/// `src/app.py`, `src/*.py`, `src/**/*.py`, `!src/**/test_*`.
///
/// `*` matches any run of characters within one name (never a `/`), `?` one character, `[abc]`, `[a-z]`
/// and `[!a-z]` (or `[^a-z]`) one character of a class, `**` alone between slashes any number of folders
/// (none too), and `\` makes the next character literal. A leading `!` makes the pattern an exclude.
/// A pattern matches a path when it matches the path itself or one of the folders that hold it, so
/// `src` stands for everything under `src/`, and `!vendor` excludes everything under `vendor/`.
///
/// Paths and names are compared byte for byte (names need not be UTF-8); `?` and a class take one
/// UTF-8 character.
package struct WatchPattern: Sendable, Hashable {
    /// The pattern as matched: normalized (`./src//a/` is `src/a`), without its `!`.
    package let text: String
    /// Whether the pattern was written with a leading `!`.
    package let isExclude: Bool
    /// The pattern's names, split at `/`.
    let segments: [Segment]

    /// One name of a pattern.
    enum Segment: Sendable, Hashable {
        /// `**`: any number of names, none included.
        case anyDepth
        /// A name without wildcards.
        case literal([UInt8])
        /// A name with `*`, `?` or a class.
        case glob([Token])
    }

    /// One piece of a name with wildcards.
    enum Token: Sendable, Hashable {
        case byte(UInt8)
        /// `*`.
        case anyRun
        /// `?`.
        case anyOne
        /// `[...]`: the characters of `ranges`, or any other with `isNegated`.
        case oneOf(ranges: [ClosedRange<UInt32>], isNegated: Bool)
    }

    /// The folders never watched, by their name, wherever they are under the manifest's folder.
    package static let neverWatchedFolders = [".git", ".startup"]

    /// Compiles a pattern as written in a manifest.
    ///
    /// - Throws: ``WatchPatternError`` for an empty pattern, an absolute one, one whose `..` leaves the
    ///   manifest's folder, one under a folder that is never watched, and an invalid glob.
    package init(_ written: String) throws(WatchPatternError) {
        var body = Substring(written)
        isExclude = body.hasPrefix("!")
        if isExclude { body = body.dropFirst() }
        guard !body.isEmpty else {
            throw WatchPatternError(
                written: written,
                reason: isExclude
                    ? "excludes nothing; write the path after the \"!\", as in \"!src/**/test_*\""
                    : "is empty; name a file, a folder or a glob such as \"src/**/*.py\"")
        }
        guard !body.hasPrefix("/") else {
            throw WatchPatternError(written: written, reason: "is absolute; watched paths are relative to the manifest's folder")
        }
        var names: [Substring] = []
        for name in body.split(separator: "/", omittingEmptySubsequences: true) {
            switch name {
            case ".": continue
            case "..":
                guard !names.isEmpty else {
                    throw WatchPatternError(
                        written: written, reason: "leaves the manifest's folder; a watched path must be inside it")
                }
                names.removeLast()
            default: names.append(name)
            }
        }
        if let never = names.first(where: { Self.neverWatchedFolders.contains(String($0)) }) {
            throw WatchPatternError(written: written, reason: "is under \(never)/, which is never watched")
        }
        var segments: [Segment] = []
        segments.reserveCapacity(names.count)
        for name in names {
            segments.append(try Self.segment(Array(name.utf8), written: written))
        }
        self.segments = segments
        text = names.isEmpty ? "." : names.joined(separator: "/")
    }

    /// The pattern as written back: `!src/**/test_*`.
    package var written: String { (isExclude ? "!" : "") + text }

    // MARK: - Compiling

    private static func segment(_ name: [UInt8], written: String) throws(WatchPatternError) -> Segment {
        if name == [UInt8(ascii: "*"), UInt8(ascii: "*")] { return .anyDepth }
        var tokens: [Token] = []
        var hasWildcard = false
        var index = 0
        while index < name.count {
            let byte = name[index]
            switch byte {
            case UInt8(ascii: "\\"):
                guard index + 1 < name.count else {
                    throw WatchPatternError(
                        written: written,
                        reason: #"ends a name with a backslash that escapes nothing; write "\\\\" in JSON for a literal backslash"#)
                }
                tokens.append(.byte(name[index + 1]))
                index += 2
            case UInt8(ascii: "*"):
                if index + 1 < name.count, name[index + 1] == UInt8(ascii: "*") {
                    throw WatchPatternError(
                        written: written, reason: "has \"**\" inside a name; \"**\" stands alone between slashes, as in \"src/**/*.py\"")
                }
                tokens.append(.anyRun)
                hasWildcard = true
                index += 1
            case UInt8(ascii: "?"):
                tokens.append(.anyOne)
                hasWildcard = true
                index += 1
            case UInt8(ascii: "["):
                let (token, next) = try characterClass(name, from: index, written: written)
                tokens.append(token)
                hasWildcard = true
                index = next
            default:
                tokens.append(.byte(byte))
                index += 1
            }
        }
        guard hasWildcard else {
            return .literal(
                tokens.map {
                    guard case .byte(let byte) = $0 else { preconditionFailure("a name without wildcards holds bytes only") }
                    return byte
                })
        }
        return .glob(tokens)
    }

    /// The class that starts at `name[start]` (a `[`), and the index after its `]`.
    private static func characterClass(_ name: [UInt8], from start: Int, written: String) throws(WatchPatternError) -> (Token, Int) {
        var index = start + 1
        var isNegated = false
        if index < name.count, name[index] == UInt8(ascii: "!") || name[index] == UInt8(ascii: "^") {
            isNegated = true
            index += 1
        }
        var ranges: [ClosedRange<UInt32>] = []
        var isFirst = true
        while index < name.count {
            if name[index] == UInt8(ascii: "]"), !isFirst { return (.oneOf(ranges: ranges, isNegated: isNegated), index + 1) }
            isFirst = false
            if name[index] == UInt8(ascii: "\\"), index + 1 < name.count { index += 1 }
            let (low, afterLow) = UTF8Scalar.decode(name, at: index)
            index = afterLow
            if index + 1 < name.count, name[index] == UInt8(ascii: "-"), name[index + 1] != UInt8(ascii: "]") {
                var highIndex = index + 1
                if name[highIndex] == UInt8(ascii: "\\"), highIndex + 1 < name.count { highIndex += 1 }
                let (high, afterHigh) = UTF8Scalar.decode(name, at: highIndex)
                guard low <= high else {
                    throw WatchPatternError(written: written, reason: "has a class range that runs backwards; write the lower end first")
                }
                ranges.append(low...high)
                index = afterHigh
            } else {
                ranges.append(low...low)
            }
        }
        throw WatchPatternError(written: written, reason: #"has a "[" without its "]"; write "\\[" in JSON for a literal "[""#)
    }
}

// MARK: - Matching

extension WatchPattern {
    /// Whether the pattern matches `path` or one of the folders that hold it.
    ///
    /// - Complexity: O(*n* × *m*) at worst for *n* names in the path and *m* in the pattern; one pass
    ///   without `**`.
    package func matches(_ path: WatchPath) -> Bool {
        Self.matches(segments[...], path.names[...], partial: false)
    }

    /// Whether something under the folder `folder` could match: `src/**/*.py` could for `src/lib`, `src/*.py`
    /// could not for `src/lib` (its files are not directly in `src`), and every pattern could for `.`.
    package func couldMatch(under folder: WatchPath) -> Bool {
        Self.matches(segments[...], folder.names[...], partial: true)
    }

    /// Matches names against pattern segments. The path matched when the pattern is used up (the pattern named
    /// it or a folder above it); when the path is used up first, it matched if the rest of the pattern can
    /// match nothing (only `**`), or, for `partial`, if the rest could match what is under it.
    private static func matches(_ pattern: ArraySlice<Segment>, _ names: ArraySlice<[UInt8]>, partial: Bool) -> Bool {
        var pattern = pattern
        var names = names
        while let segment = pattern.first {
            guard let name = names.first else {
                return partial || pattern.allSatisfy { $0 == .anyDepth }
            }
            switch segment {
            case .anyDepth:
                let rest = pattern.dropFirst()
                // `**` takes no name, one, two, ...: the first way that matches wins.
                var remaining = names
                while true {
                    if matches(rest, remaining, partial: partial) { return true }
                    guard !remaining.isEmpty else { return false }
                    remaining = remaining.dropFirst()
                }
            case .literal(let literal):
                guard literal == name else { return false }
            case .glob(let tokens):
                guard matches(tokens, name) else { return false }
            }
            pattern = pattern.dropFirst()
            names = names.dropFirst()
        }
        return true
    }

    /// Whether one name matches a name's tokens: the usual wildcard walk that goes back to the last `*`.
    private static func matches(_ tokens: [Token], _ name: [UInt8]) -> Bool {
        var token = 0
        var index = 0
        var star: (token: Int, index: Int)?
        while index < name.count {
            if token < tokens.count {
                switch tokens[token] {
                case .byte(let byte) where byte == name[index]:
                    token += 1
                    index += 1
                    continue
                case .anyOne:
                    token += 1
                    index = UTF8Scalar.decode(name, at: index).next
                    continue
                case .oneOf(let ranges, let isNegated):
                    let (scalar, next) = UTF8Scalar.decode(name, at: index)
                    if ranges.contains(where: { $0.contains(scalar) }) != isNegated {
                        token += 1
                        index = next
                        continue
                    }
                case .anyRun:
                    star = (token, index)
                    token += 1
                    continue
                case .byte: break
                }
            }
            guard let last = star else { return false }
            star = (last.token, last.index + 1)
            token = last.token + 1
            index = last.index + 1
        }
        while token < tokens.count, tokens[token] == .anyRun { token += 1 }
        return token == tokens.count
    }
}

/// Decodes one character of UTF-8 bytes for `?` and classes; a byte that starts no valid character is taken alone.
enum UTF8Scalar {
    /// The character at `bytes[index]` (its scalar value, or the byte's own for invalid UTF-8) and the index after it.
    static func decode(_ bytes: [UInt8], at index: Int) -> (value: UInt32, next: Int) {
        let lead = bytes[index]
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return (UInt32(lead), index + 1)
        }
        guard index + length <= bytes.count else { return (UInt32(lead), index + 1) }
        var value = UInt32(lead) & (0xFF >> (length + 1))
        for offset in 1..<length {
            let byte = bytes[index + offset]
            guard byte & 0xC0 == 0x80 else { return (UInt32(lead), index + 1) }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        return (value, index + length)
    }
}
