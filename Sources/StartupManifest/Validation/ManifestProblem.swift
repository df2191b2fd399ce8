import StartupJSON

/// One problem in a manifest: where it is (`commands[4] ("database").dependencies[1]`) and what
/// is wrong.
public typealias ManifestProblem = DocumentProblem
