#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

#if canImport(Darwin)
    /// `posix_spawn_file_actions_t` as a value we can take `&` of (an opaque pointer on Darwin).
    typealias SpawnFileActions = posix_spawn_file_actions_t?
    /// `posix_spawnattr_t` as a value we can take `&` of (an opaque pointer on Darwin).
    typealias SpawnAttributes = posix_spawnattr_t?
#elseif !os(Linux) || !(arch(x86_64) || arch(arm64))
    /// `posix_spawn_file_actions_t` as a value we can take `&` of (a struct elsewhere).
    typealias SpawnFileActions = posix_spawn_file_actions_t
    /// `posix_spawnattr_t` as a value we can take `&` of (a struct elsewhere).
    typealias SpawnAttributes = posix_spawnattr_t
#endif
