import StartupJSON

/// A manifest could not be used: the file could not be read (`.unreadable`), or its content is
/// not valid (`.invalid`, with every problem and its place).
public typealias ManifestError = DocumentError
