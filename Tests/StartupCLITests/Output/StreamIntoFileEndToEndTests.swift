import Foundation
import Testing

/// `--output stream` into a regular file, through the built binary: commands that copy with `copy_file_range`
/// (coreutils `cat`) beside others lose nothing and overwrite nothing, and the caller's file is left as it was given.
@Suite(.timeLimit(.minutes(2))) struct StreamIntoFileEndToEndTests {
    #if os(Linux)
        @Test func aLargeCopy_besideAShortLine_intoAFileOpenedWithoutAppend_keepsEveryByteOfBoth() async throws {
            let folder = try TemporaryDirectory()
            // 200 MB of one byte that no line of `startup`'s holds: counting it finds a lost or overwritten byte.
            try folder.write(
                "commands.json",
                """
                {"version": 1, "commands": [
                  {"id": "big", "run": "cat A.bin"},
                  {"id": "small", "run": "echo hello-small"}
                ]}
                """)
            // The file is opened once, without append, as `>` does; its flags are shown before and after the run.
            let result = try await ShellPipeline.run(
                #"""
                head -c 200000000 /dev/zero | tr '\0' '\1' > A.bin || exit 9
                exec 3> out
                grep flags /proc/$$/fdinfo/3 >&2
                "$STARTUP" run --no-report --output stream >&3 || exit 8
                grep flags /proc/$$/fdinfo/3 >&2
                exec 3>&-
                tr -cd '\1' < out | wc -c
                tr -d '\1' < out
                """#, in: folder.path)
            #expect(result.status == 0, "\(result.error)")
            let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.first.map { $0.trimmingCharacters(in: .whitespaces) } == "200000000", "\(result.output)")
            #expect(lines.filter { $0 == "hello-small" }.count == 1, "\(result.output)")
            #expect(result.output.contains("✓ small"), "\(result.output)")
            let flags = result.error.split(separator: "\n").filter { $0.hasPrefix("flags:") }
            #expect(flags.count == 2 && flags[0] == flags[1], "the caller's flags are as they were: \(result.error)")
        }
    #endif
}
