import Testing

@testable import StartupCLI

/// The shutdown's last line names the cause its kills share.
@Suite struct ShutdownRendererTests {
    @Test func theLastLine_namesTheCauseItsKillsShare_orJustCountsThem() {
        #expect(ShutdownRenderer.killedClause([]) == "")
        #expect(ShutdownRenderer.killedClause([.gracePeriodEnded]) == " (1 killed after the grace period)")
        #expect(ShutdownRenderer.killedClause([.noGracePeriod, .noGracePeriod]) == " (2 killed with no grace period)")
        #expect(ShutdownRenderer.killedClause([.gracePeriodEnded, .secondInterrupt, .secondInterrupt]) == " (3 killed)")
    }
}
