import StartupKit
import StartupPlatform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How glibc's malloc grows its arenas, tuned for a run.
///
/// A run allocates on worker threads, in arenas that grow 128 KiB at a time and give freed memory back
/// at once, to fault it in again for the next command. Growing by 4 MiB more than asked (`M_TOP_PAD`)
/// spares a run of short commands from faulting that memory in again and again; memory never touched
/// costs nothing, but each arena keeps up to 4 MiB of what it frees. Setting it also fixes glibc's threshold for
/// serving an allocation with its own `mmap` at 128 KiB (it would otherwise rise after such a block
/// is freed): large buffers, such as a report's JSON, are mapped and unmapped each time.
package enum MallocArenas {
    /// C signature of `mallopt`, which the Glibc module does not export.
    private typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
    /// `M_TOP_PAD` of glibc's `malloc.h`.
    private static let topPadParameter: Int32 = -2
    /// How much more than asked an arena grows, and keeps of what is freed.
    static let topPad: Int32 = 4 << 20

    /// Makes every arena grow by ``topPad`` more than it needs; tells whether the C library took it
    /// (`false` where there is no `mallopt`).
    @discardableResult
    package static func padGrowth() -> Bool {
        #if canImport(Glibc)
            guard let mallopt = CLibrary.lookUp("mallopt", as: Mallopt.self) else { return false }
            return mallopt(topPadParameter, topPad) == 1
        #else
            return false
        #endif
    }
}
