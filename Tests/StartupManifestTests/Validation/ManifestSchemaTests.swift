import Foundation
import StartupKit
import StartupTestSupport
import Testing

@testable import StartupManifest

/// `schema/commands.schema.json` and the decoder agree: the same keys at every level, the same
/// required ones; the repository's manifests validate against the schema, and what the decoder
/// rejects for its shape the schema rejects too. The schema is checked by a small validator of the
/// JSON Schema keywords it uses, so no test needs software the machine may lack.
@Suite struct ManifestSchemaTests {

    private func load(_ path: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(contentsOf: RepositoryFiles.url(path)), options: [.fragmentsAllowed])
    }

    private func schema() throws -> [String: Any] {
        try #require(try load("schema/commands.schema.json") as? [String: Any])
    }

    private func keys(_ node: Any?) -> Set<String> {
        Set(((node as? [String: Any])?["properties"] as? [String: Any])?.keys.map { $0 } ?? [])
    }

    @Test func theSchemaAndTheDecoder_haveTheSameKeysAndRequiredOnes() throws {
        let schema = try schema()
        let definitions = try #require(schema["$defs"] as? [String: Any])
        #expect(keys(schema) == Set(ManifestDecoder.rootKeys))
        #expect(keys((schema["properties"] as? [String: Any])?["defaults"]) == Set(ManifestDecoder.defaultsKeys))
        #expect(keys(definitions["command"]) == Set(ManifestDecoder.commandKeys))
        #expect(keys(definitions["ready"]) == Set(ManifestDecoder.readinessKeys))
        #expect(keys(definitions["restart"]) == Set(ManifestDecoder.restartKeys))
        #expect(keys(definitions["alive"]) == Set(ManifestDecoder.livenessKeys))
        #expect(schema["required"] as? [String] == ["version", "commands"])
        #expect((definitions["command"] as? [String: Any])?["required"] as? [String] == ["id"])
        let objects = [
            schema, (schema["properties"] as? [String: Any])?["defaults"], definitions["command"], definitions["ready"],
            definitions["restart"], definitions["alive"],
        ]
        for node in objects {
            #expect((node as? [String: Any])?["additionalProperties"] as? Bool == false, "unknown keys are errors at every level")
        }
    }

    @Test func restartAndAlive_haveTheDecodersDefaultsRangesAndChoices() throws {
        let definitions = try #require(try schema()["$defs"] as? [String: Any])
        let restart = try #require((definitions["restart"] as? [String: Any])?["properties"] as? [String: Any])
        let alive = try #require((definitions["alive"] as? [String: Any])?["properties"] as? [String: Any])
        func member(_ properties: [String: Any], _ key: String, _ keyword: String) -> Any? {
            (properties[key] as? [String: Any])?[keyword]
        }
        let policy = RestartPolicy()
        #expect(member(restart, "on", "enum") as? [String] == ["failure", "exit"])
        #expect(member(restart, "on", "default") as? String == "failure" && policy.condition == .failure)
        #expect(member(restart, "limit", "default") as? Int == policy.limit)
        #expect(member(restart, "limit", "minimum") as? Int == ManifestDecoder.restartLimitRange.lowerBound)
        #expect(member(restart, "limit", "maximum") as? Int == ManifestDecoder.restartLimitRange.upperBound)
        #expect(member(restart, "delay", "default") as? String == DurationText.format(policy.delay))
        #expect(member(alive, "interval", "default") as? String == DurationText.format(ManifestLiveness.defaultInterval))
        #expect(member(alive, "failures", "default") as? Int == ManifestLiveness.defaultFailures)
        #expect(member(alive, "failures", "minimum") as? Int == ManifestDecoder.livenessFailuresRange.lowerBound)
        #expect(member(alive, "failures", "maximum") as? Int == ManifestDecoder.livenessFailuresRange.upperBound)
        let checks = ((definitions["alive"] as? [String: Any])?["oneOf"] as? [[String: Any]])?.compactMap { $0["required"] as? [String] }
        #expect(checks == ManifestDecoder.livenessProbeKeys.map { [$0] })
        let dependent = (definitions["command"] as? [String: Any])?["dependentRequired"] as? [String: [String]]
        #expect(dependent == ["restart": ["ready"], "alive": ["ready"], "watch": ["run"]], "restart and alive are for services only")
    }

    @Test(arguments: ["commands.json", "examples/dev-stack/commands.json"])
    func theRepositorysManifests_validate(path: String) throws {
        let validator = SchemaValidator(schema: try schema())
        #expect(validator.problems(in: try load(path)).isEmpty)
        _ = try Manifest.decode([UInt8](Data(contentsOf: RepositoryFiles.url(path))), file: path)
    }

    @Test func whatTheDecoderRejects_theSchemaRejects() throws {
        let validator = SchemaValidator(schema: try schema())
        let wrong: [String] = [
            #"{"version": 1, "commands": [{"id": "a", "dependsOn": ["b"]}]}"#,
            #"{"version": 2, "commands": []}"#,
            #"{"commands": []}"#,
            #"{"version": 1, "commands": [{"id": "a", "estimate": "5"}]}"#,
            #"{"version": 1, "commands": [{"id": "a b"}]}"#,
            #"{"version": 1, "commands": [{"id": "a", "priority": "urgent"}]}"#,
            #"{"version": 1, "commands": [{"id": "a", "retries": 101}]}"#,
            #"{"version": 1, "commands": [{"id": "a", "run": "x", "ready": {"tcp": "h:1", "log": "up"}}]}"#,
            #"{"version": 1, "commands": [{"id": "a", "run": "x", "ready": {"http": "https://h/"}}]}"#,
            #"{"version": 1, "defaults": {"timout": "1s"}, "commands": []}"#,
            #"{"version": 1, "defaults": {"envFile": ""}, "commands": []}"#,
            #"{"version": 1, "commands": [{"id": "a", "envFile": 3}]}"#,
            #"{"version": 1, "commands": [{"id": "a", "envFile": [".env", ""]}]}"#,
            #"{"version": 1, "commands": [{"id": "a", "run": "x", "restart": {}}]}"#,
            #"{"version": 1, "commands": [{"id": "a", "run": "x", "alive": {"tcp": "h:1"}}]}"#,
            #"{"version": 1, "defaults": {"restart": {}}, "commands": []}"#,
            #"{"version": 1, "commands": [{"id": "a", "run": "x", "ready": {"tcp": "h:1"}, "restart": {"on": "always"}}]}"#,
            #"{"version": 1, "commands": [{"id": "a", "run": "x", "ready": {"tcp": "h:1"}, "restart": {"limit": 1001}}]}"#,
            #"{"version": 1, "commands": [{"id": "a", "run": "x", "ready": {"tcp": "h:1"}, "restart": {"limit": 2.5}}]}"#,
            #"{"version": 1, "commands": [{"id": "a", "run": "x", "ready": {"tcp": "h:1"}, "restart": {"delay": 500}}]}"#,
            #"{"version": 1, "commands": [{"id": "a", "run": "x", "ready": {"tcp": "h:1"}, "restart": {"limt": 3}}]}"#,
            #"{"version": 1, "commands": [{"id": "a", "run": "x", "ready": {"tcp": "h:1"}, "alive": {}}]}"#,
            #"{"version": 1, "commands": [{"id": "a", "run": "x", "ready": {"tcp": "h:1"}, "alive": {"log": "up"}}]}"#,
            #"{"version": 1, "commands": [{"id": "a", "run": "x", "ready": {"tcp": "h:1"}, "alive": {"after": "1s"}}]}"#,
            #"{"version": 1, "commands": [{"id": "a", "run": "x", "ready": {"tcp": "h:1"}, "alive": {"tcp": "h:1", "exec": "x"}}]}"#,
            #"{"version": 1, "commands": [{"id": "a", "run": "x", "ready": {"tcp": "h:1"}, "alive": {"tcp": "h:1", "failures": 0}}]}"#,
            #"{"version": 1, "commands": [{"id": "a", "run": "x", "watch": []}]}"#,
            #"{"version": 1, "commands": [{"id": "a", "run": "x", "watch": "src"}]}"#,
            #"{"version": 1, "commands": [{"id": "a", "run": "x", "watch": ["/etc"]}]}"#,
            #"{"version": 1, "commands": [{"id": "a", "run": "x", "watch": ["src", ""]}]}"#,
            #"{"version": 1, "commands": [{"id": "a", "watch": ["src"]}]}"#,
            #"{"version": 1, "commands": [{"id": "a", "run": "x", "watch": {"debounce": "1s"}}]}"#,
            #"{"version": 1, "commands": [{"id": "a", "run": "x", "watch": {"paths": ["src"], "delay": "1s"}}]}"#,
            #"{"version": 1, "commands": [{"id": "a", "run": "x", "watch": {"paths": ["src"], "debounce": 200}}]}"#,
        ]
        for text in wrong {
            let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
            #expect(!validator.problems(in: value).isEmpty, "the schema accepts \(text)")
            #expect(throws: ManifestError.self, "the decoder accepts \(text)") { try Manifest.decode(Array(text.utf8), file: "m.json") }
        }
    }

    @Test func watch_hasTheDecodersKeysAndDefault_andBothForms() throws {
        let definitions = try #require(try schema()["$defs"] as? [String: Any])
        let forms = try #require((definitions["watch"] as? [String: Any])?["oneOf"] as? [[String: Any]])
        let object = try #require(forms.first { $0["type"] as? String == "object" })
        #expect(keys(object) == Set(ManifestDecoder.watchKeys))
        #expect(object["additionalProperties"] as? Bool == false)
        let debounce = (object["properties"] as? [String: Any])?["debounce"] as? [String: Any]
        #expect(debounce?["default"] as? String == DurationText.format(ManifestWatch.defaultDebounce))
        let validator = SchemaValidator(schema: try schema())
        let good = [
            #"{"version": 1, "commands": [{"id": "a", "run": "x", "watch": ["src/**/*.py", "!src/**/test_*"]}]}"#,
            #"{"version": 1, "commands": [{"id": "a", "run": "x", "watch": {"paths": ["src"], "debounce": "50ms"}}]}"#,
        ]
        for text in good {
            #expect(validator.problems(in: try JSONSerialization.jsonObject(with: Data(text.utf8))).isEmpty, "\(text)")
            _ = try Manifest.decode(Array(text.utf8), file: "m.json")
        }
    }

    @Test func aManifestMayNameItsSchema() throws {
        let text = #"{"$schema": "../schema/commands.schema.json", "version": 1, "commands": [{"id": "a"}]}"#
        #expect(try Manifest.decode(Array(text.utf8), file: "m.json").commands.map(\.id) == ["a"])
        #expect(throws: ManifestError.self) {
            try Manifest.decode(Array(#"{"$schema": 1, "version": 1, "commands": []}"#.utf8), file: "m.json")
        }
    }
}

/// Checks a JSON value against a schema, for the keywords `commands.schema.json` uses: `type`,
/// `properties`, `additionalProperties`, `required`, `dependentRequired`, `items`, `enum`, `const`,
/// `pattern`, `minLength`, `maxLength`, `minimum`, `maximum`, `minItems`, `oneOf` and `$ref` into `$defs`.
struct SchemaValidator {
    let schema: [String: Any]

    /// Where `value` breaks the schema, as JSON-pointer-like paths with a reason; empty if valid.
    func problems(in value: Any) -> [String] {
        problems(value, against: schema, at: "")
    }

    private func problems(_ value: Any, against node: [String: Any], at path: String) -> [String] {
        if let reference = node["$ref"] as? String {
            let name = String(reference.dropFirst("#/$defs/".count))
            guard let target = (schema["$defs"] as? [String: Any])?[name] as? [String: Any] else {
                return ["\(path): bad $ref \(reference)"]
            }
            return problems(value, against: target, at: path)
        }
        var found: [String] = []
        if let type = node["type"] as? String, !Self.value(value, hasType: type) { return ["\(path): not \(type)"] }
        if let options = node["enum"] as? [Any], !options.contains(where: { Self.equal($0, value) }) {
            found.append("\(path): not one of \(options)")
        }
        if let constant = node["const"], !Self.equal(constant, value) { found.append("\(path): not \(constant)") }
        if let text = value as? String {
            if let pattern = node["pattern"] as? String, text.range(of: pattern, options: .regularExpression) == nil {
                found.append("\(path): does not match \(pattern)")
            }
            if let least = node["minLength"] as? Int, text.count < least { found.append("\(path): shorter than \(least)") }
            if let most = node["maxLength"] as? Int, text.count > most { found.append("\(path): longer than \(most)") }
        }
        if let number = value as? NSNumber, !Self.isBoolean(value) {
            if let least = node["minimum"] as? Double, number.doubleValue < least { found.append("\(path): below \(least)") }
            if let most = node["maximum"] as? Double, number.doubleValue > most { found.append("\(path): above \(most)") }
        }
        if let object = value as? [String: Any] {
            let properties = node["properties"] as? [String: Any] ?? [:]
            for key in node["required"] as? [String] ?? [] where object[key] == nil { found.append("\(path): missing \(key)") }
            for (key, member) in object {
                if let property = properties[key] as? [String: Any] {
                    found += problems(member, against: property, at: path + "/" + key)
                } else if node["additionalProperties"] as? Bool == false {
                    found.append("\(path): unknown key \(key)")
                } else if let additional = node["additionalProperties"] as? [String: Any] {
                    found += problems(member, against: additional, at: path + "/" + key)
                }
            }
        }
        if let object = value as? [String: Any], let dependent = node["dependentRequired"] as? [String: [String]] {
            for (key, needed) in dependent where object[key] != nil {
                for other in needed where object[other] == nil { found.append("\(path): \(key) without \(other)") }
            }
        }
        if let array = value as? [Any], let least = node["minItems"] as? Int, array.count < least {
            found.append("\(path): fewer than \(least) items")
        }
        if let array = value as? [Any], let items = node["items"] as? [String: Any] {
            for (index, element) in array.enumerated() { found += problems(element, against: items, at: "\(path)/\(index)") }
        }
        if let options = node["oneOf"] as? [[String: Any]] {
            let matching = options.filter { problems(value, against: $0, at: path).isEmpty }.count
            if matching != 1 { found.append("\(path): matches \(matching) of oneOf, not exactly 1") }
        }
        return found
    }

    private static func isBoolean(_ value: Any) -> Bool {
        // JSONSerialization's booleans are NSNumbers whose type is `char`.
        guard let number = value as? NSNumber else { return false }
        return String(cString: number.objCType) == "c"
    }

    private static func value(_ value: Any, hasType type: String) -> Bool {
        switch type {
        case "object": value is [String: Any]
        case "array": value is [Any]
        case "string": value is String
        case "boolean": isBoolean(value)
        case "integer": !isBoolean(value) && (value as? NSNumber).map { $0.doubleValue.rounded() == $0.doubleValue } ?? false
        case "number": !isBoolean(value) && value is NSNumber
        default: false
        }
    }

    private static func equal(_ left: Any, _ right: Any) -> Bool {
        (left as? NSObject)?.isEqual(right) ?? false
    }
}
