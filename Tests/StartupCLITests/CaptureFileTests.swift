import Foundation
import Testing

@testable import StartupCLI

/// The file that collects a command's output: anonymous where Linux allows it.
@Suite struct CaptureFileTests {
    #if os(Linux) && (arch(x86_64) || arch(arm64))
        /// `O_TMPFILE` files have no name (`/proc` shows `/tmp/#123 (deleted)`); the `mkstemp` fallback's
        /// name (`startup-output.XXXXXX`) would show if the architecture's `O_TMPFILE` value were wrong.
        @Test func onLinux_theCaptureFileIsAnAnonymousTemporaryFile() throws {
            let file = try CaptureFile.create()
            let target = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(file.descriptor)")
            #expect(!target.contains("startup-output."), "created with mkstemp, not O_TMPFILE: \(target)")
            #expect(target.contains("/#"), "not an O_TMPFILE file: \(target)")
        }
    #endif
}
