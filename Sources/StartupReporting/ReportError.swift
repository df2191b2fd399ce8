import StartupJSON

/// A saved run report could not be used: the file could not be read (`.unreadable`), or it is
/// not a report (`.invalid`, with every problem and its place). The same type as a manifest's
/// error: both are JSON documents of this package, read and checked the same way.
public typealias ReportError = DocumentError
