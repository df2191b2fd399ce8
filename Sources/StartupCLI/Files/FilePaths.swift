#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// File paths worked out as text, with no file system access but reading the current directory: what the CLI
/// needs of paths, the way the kernel reads them (no `~` expansion, a symbolic link's `..` left to the kernel).
enum FilePaths {
    /// This process's current directory, absolute, or `nil` when it cannot be read (it was removed).
    static func currentDirectory() -> String? {
        guard let path = getcwd(nil, 0) else { return nil }
        defer { free(path) }
        return String(cString: path)
    }

    /// `path` made absolute against `base` (the current directory by default), without `.` components or
    /// repeated slashes; `..` components are kept, for the kernel to resolve. Stays relative only when the current
    /// directory cannot be read.
    static func absolute(_ path: String, in base: String? = currentDirectory()) -> String {
        normalized(path, in: base, resolvingParents: false)
    }

    /// `path` made absolute against `base` (the current directory by default), with `.` and `..` components
    /// worked out as text: `/a/./b/../c` is `/a/c`, and `..` at the root is the root.
    static func standardized(_ path: String, in base: String? = currentDirectory()) -> String {
        normalized(path, in: base, resolvingParents: true)
    }

    /// The folder holding `path` (made absolute): `/a` for `/a/b`, `/` for `/a` and for `/`.
    static func folder(of path: String, in base: String? = currentDirectory()) -> String {
        let file = absolute(path, in: base)
        guard let slash = file.lastIndex(of: "/") else { return "." }
        return slash == file.startIndex ? "/" : String(file[..<slash])
    }

    /// The last component of `path`: `b` for `/a/b` and `a/b/`, `/` for `/`.
    static func lastComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? (path.hasPrefix("/") ? "/" : "")
    }

    private static func normalized(_ path: String, in base: String?, resolvingParents: Bool) -> String {
        let full = path.hasPrefix("/") ? path : base.map { $0 + "/" + path } ?? path
        let isAbsolute = full.hasPrefix("/")
        var components: [Substring] = []
        for component in full.split(separator: "/") where component != "." {
            if resolvingParents, component == "..", let last = components.last, last != ".." {
                components.removeLast()
            } else if !(resolvingParents && component == ".." && isAbsolute) {
                components.append(component)
            }
        }
        let joined = components.joined(separator: "/")
        return isAbsolute ? "/" + joined : joined.isEmpty ? "." : joined
    }
}
