/// A `--what-if` value that cannot be read, or names a command or edge the manifest does not
/// have; either way a usage error (exit 64).
struct WhatIfError: Error, Equatable {
    /// What is wrong, with the syntax to use.
    let message: String
}
