/// What a user sees of one option: its names, the value it takes, its help, and what completes that
/// value. ``OptionSpec`` pairs it with how the value is stored; `--help` and the completion scripts
/// read only this.
struct OptionDescriptor: Equatable, Sendable {
    /// The long name, with its dashes (`--jobs`).
    let name: String
    /// The short form, with its dash (`-j`), if there is one.
    let shortName: String?
    /// The value the option takes; `nil` for a flag.
    let value: Value?
    /// The help, wrapped to the help's width; a line break starts a new line, and a line that
    /// starts with spaces is printed as written (a table).
    let help: String
    /// Whether `--help` and the completion scripts leave the option out (it is for the scripts
    /// themselves).
    let isHidden: Bool

    /// Describes an option.
    init(_ name: String, short shortName: String? = nil, value: Value? = nil, help: String, isHidden: Bool = false) {
        self.name = name
        self.shortName = shortName
        self.value = value
        self.help = help
        self.isHidden = isHidden
    }

    /// The value an option takes.
    struct Value: Equatable, Sendable {
        /// The value's name in the help (`path` in `--file <path>`).
        let name: String
        /// What completes the value.
        let completion: Completion
    }

    /// What a completion script offers for an option's value.
    enum Completion: Equatable, Sendable {
        /// Nothing to offer: a number, a duration or free text.
        case freeText
        /// A file name.
        case path
        /// A folder's name.
        case directory
        /// One of these words.
        case choices([String])
    }

    /// Every name the option is known by: the short form first.
    var names: [String] { [shortName, name].compactMap(\.self) }

    /// The names and the value as the help's left column shows them: `-j, --jobs <n>`.
    var label: String {
        names.joined(separator: ", ") + (value.map { " <\($0.name)>" } ?? "")
    }

    /// `-h, --help` as every subcommand lists it.
    static let subcommandHelp = OptionDescriptor("--help", short: "-h", help: "Show this help")
    /// `-h, --help` as the general help lists it.
    static let generalHelp = OptionDescriptor("--help", short: "-h", help: "Show help (also: startup <subcommand> --help)")
    /// `--version`.
    static let version = OptionDescriptor("--version", short: "-V", help: "Print the version")
}
