#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the control socket of a manifest's run is: `.startup/<manifest file name>.sock` beside the manifest
/// (a manifest without a folder of its own, such as `-f -`: in the current directory, named `stdin`). Where that
/// path is too long for a socket address, in a folder of the user's own, `$XDG_RUNTIME_DIR/startup` (else
/// `/tmp/startup-<uid>`, mode 0700, its owner checked), under a name derived from the manifest's absolute path.
/// The run and its clients work it out the same way.
package struct ControlSocketPath: Equatable, Sendable {
    /// The socket's path.
    package let socket: String
    /// The folder that holds it (the socket is bound in a fresh folder inside it, then renamed into place).
    package let folder: String
    /// Whether `folder` is the per-user fallback, made with mode 0700 and checked to be the user's own.
    package let isPerUserFolder: Bool

    /// The lock file beside the socket: the run holds it (`flock`) while it is up, so two runs of one manifest
    /// starting at once cannot both win; it holds the run's process id.
    package var lock: String { socket + ".lock" }

    /// The longest path a socket address holds, its final NUL excluded (107 on Linux, 103 on macOS).
    package static let longestPath: Int = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// The path the run of the manifest `file` (as given to `--file`) listens on.
    package static func forManifest(_ file: String, environment: [String: String]) -> ControlSocketPath {
        let folder = realFolder(ManifestFolder.path(forManifest: file))
        let name = ManifestFolder.hasFolderOfItsOwn(file) ? FilePaths.lastComponent(file) : "stdin"
        return derived(manifestFolder: folder, manifestName: name, environment: environment, userID: getuid())
    }

    /// The path for a manifest named `manifestName` in the absolute folder `manifestFolder`: pure, for tests.
    package static func derived(
        manifestFolder: String, manifestName: String, environment: [String: String], userID: uid_t
    ) -> ControlSocketPath {
        let startupFolder = (manifestFolder == "/" ? "" : manifestFolder) + "/.startup"
        let beside = startupFolder + "/" + manifestName + ".sock"
        if fits(socket: beside, folder: startupFolder) {
            return ControlSocketPath(socket: beside, folder: startupFolder, isPerUserFolder: false)
        }
        let absolute = (manifestFolder == "/" ? "" : manifestFolder) + "/" + manifestName
        let name = fallbackName(forManifestAt: absolute, named: manifestName)
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            let folder = (runtime.hasSuffix("/") ? String(runtime.dropLast()) : runtime) + "/startup"
            if fits(socket: folder + "/" + name, folder: folder) {
                return ControlSocketPath(socket: folder + "/" + name, folder: folder, isPerUserFolder: true)
            }
        }
        let folder = "/tmp/startup-\(userID)"
        return ControlSocketPath(socket: folder + "/" + name, folder: folder, isPerUserFolder: true)
    }

    /// The fallback's file name: the manifest's name (its first 32 characters, each that is not a letter, a digit,
    /// `.`, `-` or `_` as `_`), then 16 hexadecimal digits of the FNV-1a hash of its absolute path.
    static func fallbackName(forManifestAt absolutePath: String, named name: String) -> String {
        let readable = String(
            name.unicodeScalars.prefix(32).map { scalar -> Character in
                let safe =
                    scalar.isASCII
                    && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || ".-_".unicodeScalars.contains(scalar))
                return safe ? Character(scalar) : "_"
            })
        let digits = String(fnv1a(absolutePath), radix: 16)
        return readable + "-" + String(repeating: "0", count: 16 - digits.count) + digits + ".sock"
    }

    /// The 64-bit FNV-1a hash of `text`'s UTF-8 bytes: the same in every process and on every machine, unlike
    /// Swift's seeded `Hasher`.
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// Whether both the socket's path and the path it is first bound at (`folder/.bind-XXXXXX/s`) fit a socket
    /// address.
    static func fits(socket: String, folder: String) -> Bool {
        max(socket.utf8.count, folder.utf8.count + bindSuffixLength) <= longestPath
    }

    /// How much longer than its folder the path is where the socket is first bound: `/.bind-XXXXXX/s`.
    static let bindSuffixLength = "/.bind-XXXXXX/s".utf8.count

    /// `folder` with symbolic links resolved, when it exists; as given otherwise. Clients in another current
    /// directory, or reaching the folder through a link, find the same socket.
    private static func realFolder(_ folder: String) -> String {
        guard let resolved = realpath(folder, nil) else { return folder }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
