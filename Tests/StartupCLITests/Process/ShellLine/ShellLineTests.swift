import Testing

@testable import StartupCLI

/// Tests for `CommandLineSplitter`: direct exec vs `/bin/sh -c`.
@Suite struct ShellLineTests {
    /// The plan a line gets when it must go through the shell.
    private func shell(_ line: String) -> ExecutionPlan {
        ExecutionPlan(arguments: ["/bin/sh", "-c", line], usesShell: true)
    }

    /// A plain line is split on runs of spaces and tabs.
    @Test func plainCommandIsSplitOnSpacesAndTabs() {
        #expect(
            CommandLineSplitter.plan(for: "  swift build\t -c   release ")
                == ExecutionPlan(arguments: ["swift", "build", "-c", "release"], usesShell: false))
    }

    /// Single words, paths and punctuation without shell meaning run directly.
    @Test func singleWordAndPathsAreDirect() {
        #expect(CommandLineSplitter.plan(for: "true") == ExecutionPlan(arguments: ["true"], usesShell: false))
        #expect(
            CommandLineSplitter.plan(for: "./bin/tool.sh --out=build/x.o -v a:b,c@d+e%f")
                == ExecutionPlan(
                    arguments: ["./bin/tool.sh", "--out=build/x.o", "-v", "a:b,c@d+e%f"], usesShell: false))
    }

    /// Non-ASCII arguments are kept intact.
    @Test func nonASCIIArgumentsStayIntact() {
        #expect(
            CommandLineSplitter.plan(for: "echo héllo wörld")
                == ExecutionPlan(arguments: ["echo", "héllo", "wörld"], usesShell: false))
    }

    /// Each kind of shell syntax sends the line to /bin/sh.
    @Test(arguments: [
        "echo 'a b'", "echo \"a b\"", "echo `date`", "echo a\\ b", "echo $HOME", "true; false", "sleep 1 &",
        "a && b", "a | b", "a || b", "cat < in", "echo > out", "(cd x)", "echo $(pwd)", "{ echo; }", "ls *.swift",
        "ls file?", "ls [ab]", "ls a]", "ls ~/x", "echo a # comment", "echo a\nb", "echo a\r", "! grep x f",
        "echo hi!", "a ^ b",
    ])
    func eachKindOfShellSyntaxUsesTheShell(line: String) {
        #expect(CommandLineSplitter.plan(for: line) == shell(line))
    }

    /// `NAME=value cmd` needs the shell; `cmd NAME=value` does not.
    @Test func everyASCIIByteInsideAWord_usesTheShellExactlyWhenItIsShellSyntax() {
        let syntax = Set("'\"`\\$;&|<>(){}*?[]~#!^\n\r".utf8)
        for byte in UInt8(1)..<128 where byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") {
            let line = "tool a" + String(UnicodeScalar(byte)) + "b"
            #expect(CommandLineSplitter.plan(for: line).usesShell == syntax.contains(byte), "byte \(byte)")
        }
    }

    @Test func assignmentPrefixUsesTheShellButEqualsInArgumentsDoesNot() {
        #expect(CommandLineSplitter.plan(for: "FOO=1 make") == shell("FOO=1 make"))
        #expect(CommandLineSplitter.plan(for: "=x") == shell("=x"))
        #expect(
            CommandLineSplitter.plan(for: "make FOO=1")
                == ExecutionPlan(arguments: ["make", "FOO=1"], usesShell: false))
    }

    /// A leading shell keyword or builtin sends the line to /bin/sh.
    @Test(arguments: [
        "cd build", "export A", "if", "for", "while", "exit 1", "set -e", "source env.sh", ". env.sh", "exec foo",
        "eval foo", "ulimit -n", "umask 022", "alias ll", "unset A", "test -f x", "[ -f x ]", "trap x", "wait",
        "read", "shift", ":", "time make", "command -v x", "type x", "let x", "local x", "until", "case",
    ])
    func leadingBuiltinOrKeywordUsesTheShell(line: String) {
        #expect(CommandLineSplitter.plan(for: line) == shell(line))
    }

    /// Builtin names after the first word, or as prefixes of it, do not matter.
    @Test func builtinNameLaterInTheLineIsFine() {
        #expect(
            CommandLineSplitter.plan(for: "git cd exit")
                == ExecutionPlan(arguments: ["git", "cd", "exit"], usesShell: false))
        #expect(
            CommandLineSplitter.plan(for: "cdk deploy")
                == ExecutionPlan(arguments: ["cdk", "deploy"], usesShell: false))
    }

    /// Blank lines go to the shell.
    @Test(arguments: ["", "   ", "\t \t"])
    func blankLineUsesTheShell(line: String) {
        #expect(CommandLineSplitter.plan(for: line) == shell(line))
    }

    /// A blank line runs as `/bin/sh -c ""` and succeeds.
    @Test func blankLineRunsSuccessfullyThroughTheShell() async {
        let plan = CommandLineSplitter.plan(for: "")
        let outcome = await ProcessSpawner.run(
            ProcessSpec(arguments: plan.arguments, environment: [:], output: .capture))
        #expect(outcome.termination == .exited(0))
        #expect(outcome.output.isEmpty)
    }
}
