import Testing

@testable import StartupCLI

@Suite struct ConsoleMessagesTests {
    @Test func eachKind_hasItsPrefix_onEveryLine_andDetailsFollowAsTheyAre() {
        let console = Console.capturing()
        console.error("a.json:3: bad\na.json:4: worse", details: "Usage: see startup run --help")
        console.warning("not watching files: too many")
        console.notice("waiting for what the run gave up on")
        console.error("is not a valid manifest (1 problem):", details: "  at line 2: x\n")
        console.warning("a message that ends its line itself\n")
        #expect(
            console.capturedError == """
                error: a.json:3: bad
                error: a.json:4: worse
                Usage: see startup run --help
                warning: not watching files: too many
                startup: waiting for what the run gave up on
                error: is not a valid manifest (1 problem):
                  at line 2: x
                warning: a message that ends its line itself

                """)
        #expect(console.capturedOutput.isEmpty)
    }
}
