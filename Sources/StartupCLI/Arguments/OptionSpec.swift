import StartupKit

/// One option of a subcommand, declared once: what the user sees of it (its ``OptionDescriptor``)
/// and how its value is read and stored into the subcommand's options. The parser walks a
/// subcommand's list of these (``OptionDeclarations``); `--help` and the completion scripts read
/// their descriptors.
struct OptionSpec<Options>: Sendable {
    /// Reads the option's value, if it takes one, from the reader and stores it in the options.
    /// The name is the one the user wrote (`-j` or `--jobs`), for messages.
    typealias Read = @Sendable (_ reader: inout OptionReader, _ name: String, _ options: inout Options) throws(UsageError) -> Void

    /// The names, value and help.
    let descriptor: OptionDescriptor
    /// How the value is read and stored.
    let read: Read

    /// An option read by `read`.
    init(_ descriptor: OptionDescriptor, read: @escaping Read) {
        self.descriptor = descriptor
        self.read = read
    }

    /// An option without a value: `sets` records that it was given.
    static func flag(_ name: String, help: String, isHidden: Bool = false, sets: @escaping @Sendable (inout Options) -> Void) -> Self {
        Self(OptionDescriptor(name, help: help, isHidden: isHidden)) { _, _, options throws(UsageError) in sets(&options) }
    }

    /// An option whose value is a file's path.
    static func path(
        _ name: String, short: String? = nil, help: String, isHidden: Bool = false,
        stores: @escaping @Sendable (inout Options, String) -> Void
    ) -> Self {
        let value = OptionDescriptor.Value(name: "path", completion: .path)
        return Self(OptionDescriptor(name, short: short, value: value, help: help, isHidden: isHidden)) {
            reader, name, options throws(UsageError) in
            stores(&options, try reader.value(for: name))
        }
    }

    /// An option whose value is a folder's path.
    static func directory(_ name: String, help: String, stores: @escaping @Sendable (inout Options, String) -> Void) -> Self {
        let value = OptionDescriptor.Value(name: "dir", completion: .directory)
        return Self(OptionDescriptor(name, value: value, help: help)) { reader, name, options throws(UsageError) in
            stores(&options, try reader.value(for: name))
        }
    }

    /// An option whose value is one of `choices`, by their raw values.
    static func choice<Choice: RawRepresentable & Sendable>(
        _ name: String, value: String, from choices: [Choice], help: String, stores: @escaping @Sendable (inout Options, Choice) -> Void
    ) -> Self where Choice.RawValue == String {
        let value = OptionDescriptor.Value(name: value, completion: .choices(choices.map(\.rawValue)))
        return Self(OptionDescriptor(name, value: value, help: help)) { reader, name, options throws(UsageError) in
            stores(&options, try reader.choice(for: name, from: choices))
        }
    }

    /// An option whose value is a whole number from 1 to ``OptionReader/maximumCount``.
    static func count(
        _ name: String, short: String? = nil, value: String, help: String, stores: @escaping @Sendable (inout Options, Int) -> Void
    ) -> Self {
        let value = OptionDescriptor.Value(name: value, completion: .freeText)
        return Self(OptionDescriptor(name, short: short, value: value, help: help)) { reader, name, options throws(UsageError) in
            stores(&options, try reader.positiveInteger(for: name))
        }
    }

    /// An option whose value is a duration with a unit (`500ms`, `2s`, `1h`); with `isPositive`, zero is
    /// refused; with `maximum` (the longest, and how the message writes it), a longer one is.
    static func duration(
        _ name: String, help: String, isPositive: Bool = false, maximum: (duration: Duration, written: String)? = nil,
        stores: @escaping @Sendable (inout Options, Duration) -> Void
    ) -> Self {
        let value = OptionDescriptor.Value(name: "time", completion: .freeText)
        return Self(OptionDescriptor(name, value: value, help: help)) { reader, spelled, options throws(UsageError) in
            let duration = try reader.duration(for: spelled, atMost: maximum)
            if isPositive, duration <= .zero { throw reader.error("\(name) must be longer than zero") }
            stores(&options, duration)
        }
    }

    /// `-f, --file <path>`: the manifest.
    static func manifest(stores: @escaping @Sendable (inout Options, String) -> Void) -> Self {
        path("--file", short: "-f", help: "The manifest (default: commands.json; - for standard input)", stores: stores)
    }
}
