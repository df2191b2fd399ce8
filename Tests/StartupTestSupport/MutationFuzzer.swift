import StartupSeededRandom

/// A seeded mutation fuzzer for any decoder of JSON text: it mutates seed documents (changed
/// characters, control characters, truncations, inserted and deleted brackets and quotes, huge
/// numbers, deep nesting) and hands each to `decode`, collecting the documents whose error does not
/// say where. A crash ends the test process, which is the other finding.
///
/// Generic over the decode entry point, `(String) throws -> Void`, so any decoder can be fuzzed.
package struct MutationFuzzer {
    /// A document whose error has a line without `file:line:column:`.
    package struct Finding: CustomStringConvertible {
        let document: String
        let error: String

        package var description: String {
            "document \(String(document.prefix(300)).debugDescription) gave an error without a place:\n\(error)"
        }
    }

    /// Documents to mutate: valid ones, so mutations land near every kind of value.
    package let seeds: [String]
    /// The name `decode` gives the document in its errors, which must start `name:line:column: `.
    package let fileName: String

    /// Mutates `count` documents from `seed` and decodes each.
    ///
    /// - Returns: The documents whose error lacks a line and column (at most 10).
    /// A fuzzer of `seeds`, whose decoder names the document `fileName` in its errors.
    package init(seeds: [String], fileName: String) {
        self.seeds = seeds
        self.fileName = fileName
    }

    package func run(count: Int, seed: UInt64, decode: (String) throws -> Void) -> [Finding] {
        var generator = SeededGenerator(seed: seed)
        var findings: [Finding] = []
        for _ in 0..<count {
            var scalars = Array(seeds[generator.below(seeds.count)].unicodeScalars)
            for _ in 0...generator.below(3) { mutate(&scalars, &generator) }
            var document = ""
            document.unicodeScalars.append(contentsOf: scalars)
            do {
                try decode(document)
            } catch {
                let text = String(describing: error)
                if findings.count < 10, !text.split(separator: "\n").allSatisfy(hasPlace) {
                    findings.append(Finding(document: document, error: text))
                }
            }
        }
        return findings
    }

    /// `name:line:column: ` with positive numbers.
    private func hasPlace(_ line: Substring) -> Bool {
        guard line.hasPrefix(fileName + ":") else { return false }
        let numbers = line.dropFirst(fileName.count + 1).split(separator: ":", maxSplits: 2)
        guard numbers.count == 3, let row = Int(numbers[0]), let column = Int(numbers[1]) else { return false }
        return row > 0 && column > 0 && numbers[2].hasPrefix(" ")
    }

    private static let structural: [Unicode.Scalar] = ["[", "]", "{", "}", "\"", ",", ":", "\\"]
    private static let controls: [Unicode.Scalar] = [
        "\u{0}", "\u{7}", "\u{8}", "\u{A}", "\u{D}", "\u{1B}", "\u{7F}", "\u{9B}", "\u{202E}", "\u{FEFF}",
    ]
    private static let fragments = [
        "-9223372036854775808", "9223372036854775808", "-1", "0", "1e999999", "-0.0", "1.5e-400",
        String(repeating: "9", count: 400), "\"9000000000s\"", "\"99999999999999999999m\"", "\"-5ms\"", "\"1.2.3s\"",
        "\"\\u001b[31m\"", "\"\\ud800\"", "null", "true", "[]", "{}", "\"\"", "\"low\"", "\"dependsOn\"",
        String(repeating: "x", count: 5_000),
    ]

    private func mutate(_ scalars: inout [Unicode.Scalar], _ generator: inout SeededGenerator) {
        let position = generator.below(scalars.count + 1)
        switch generator.below(9) {
        case 0:  // Change one character to anything, control characters included.
            guard position < scalars.count else { return }
            scalars[position] = Unicode.Scalar(UInt8(truncatingIfNeeded: generator.next()))
        case 1:  // Truncate.
            scalars.removeSubrange(position...)
        case 2:  // Insert a bracket, quote, comma, colon or backslash.
            scalars.insert(Self.structural[generator.below(Self.structural.count)], at: position)
        case 3:  // Delete one of those.
            let structural = scalars.indices.filter { Self.structural.contains(scalars[$0]) }
            guard !structural.isEmpty else { return }
            scalars.remove(at: structural[generator.below(structural.count)])
        case 4:  // A raw control character or bidirectional override.
            scalars.insert(Self.controls[generator.below(Self.controls.count)], at: position)
        case 5:  // Replace a value with a huge number, a bad duration, another type.
            let fragment = Self.fragments[generator.below(Self.fragments.count)].unicodeScalars
            guard let value = valueRange(in: scalars, near: position) else { return }
            scalars.replaceSubrange(value, with: fragment)
        case 6:  // Deep nesting.
            let depth = 1 + generator.below(100)
            let nested =
                Array(repeating: Unicode.Scalar("["), count: depth)
                + Array(repeating: Unicode.Scalar("]"), count: generator.below(depth + 1))
            scalars.insert(contentsOf: nested, at: position)
        case 7:  // Duplicate a slice (repeated keys, repeated commands).
            let end = min(scalars.count, position + generator.below(200))
            scalars.insert(contentsOf: scalars[position..<end], at: end)
        default:  // Delete a slice.
            let end = min(scalars.count, position + generator.below(40))
            scalars.removeSubrange(position..<end)
        }
    }

    /// The range of the scalar value (string, number or literal) that starts at or after `position`.
    private func valueRange(in scalars: [Unicode.Scalar], near position: Int) -> Range<Int>? {
        guard let colon = scalars[min(position, scalars.count)...].firstIndex(of: ":") else { return nil }
        var start = colon + 1
        while start < scalars.count, scalars[start] == " " { start += 1 }
        guard start < scalars.count, !["[", "{"].contains(scalars[start]) else { return nil }
        var end = start + 1
        if scalars[start] == "\"" {
            while end < scalars.count, scalars[end] != "\"" { end += scalars[end] == "\\" ? 2 : 1 }
            end = min(end + 1, scalars.count)
        } else {
            while end < scalars.count, ![",", "}", "]", " "].contains(scalars[end]) { end += 1 }
        }
        return start..<end
    }
}
