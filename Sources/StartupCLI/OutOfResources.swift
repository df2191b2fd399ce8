#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The end of a `startup` that cannot get from the system what any run needs (a pipe to hear its signals, the
/// process engine's wake pipe): nothing could be started or stopped, so it says what failed and exits 71
/// (``ExitCode/outOfResources``) at once, from whatever thread found it. Too many open files gets a hint.
enum OutOfResources {
    /// Writes `startup: cannot <what>: <errno's description>` and a hint to standard error, and exits 71.
    static func exit(cannot what: String, errno code: Int32) -> Never {
        var message = "cannot \(what): \(errnoDescription(code))"
        if code == EMFILE || code == ENFILE {
            message += "; raise the number of files a process may open\(limitText), e.g. ulimit -n 1024"
        }
        exit(message)
    }

    /// Writes `startup: <message>` to standard error and exits 71.
    private static func exit(_ message: String) -> Never {
        let line = Array("startup: \(message)\n".utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        #if canImport(Glibc)
            Glibc.exit(ExitCode.outOfResources.rawValue)
        #else
            Darwin.exit(ExitCode.outOfResources.rawValue)
        #endif
    }

    /// The fewest files a run needs to be able to open: its own pipes and the system libraries' (Dispatch stops the
    /// process when it cannot open one), with room for a few commands.
    static let leastOpenFiles = 64

    /// Makes sure this process may open at least ``leastOpenFiles`` files, raising its own limit up to what the
    /// system allows; exits 71 with a message when it may not (`ulimit -n 19`), before anything runs, rather than
    /// failing at a random point later.
    static func requireOpenFiles() {
        var limit = rlimit()
        guard getrlimit(openFilesResource, &limit) == 0, limit.rlim_cur < rlim_t(leastOpenFiles) else { return }
        let wanted = rlim_t(leastOpenFiles)
        if limit.rlim_max >= wanted {
            limit.rlim_cur = wanted
            if setrlimit(openFilesResource, &limit) == 0 { return }
        }
        exit(
            "at most \(limit.rlim_cur) files may be open (ulimit -n), and a run needs \(leastOpenFiles): raise the limit, e.g. ulimit -n 1024"
        )
    }

    /// `RLIMIT_NOFILE` as `getrlimit` takes it.
    private static var openFilesResource: Int32 {
        #if canImport(Glibc)
            Int32(RLIMIT_NOFILE.rawValue)
        #else
            RLIMIT_NOFILE
        #endif
    }

    /// ` (the limit is N)`, the number of files this process may open, or nothing where it cannot be read.
    private static var limitText: String {
        var limit = rlimit()
        return getrlimit(openFilesResource, &limit) == 0 ? " (the limit is \(limit.rlim_cur))" : ""
    }
}
