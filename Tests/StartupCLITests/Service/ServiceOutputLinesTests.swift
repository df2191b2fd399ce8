import Testing

@testable import StartupCLI

@Suite struct ServiceOutputLinesTests {
    @Test func append_splitsLinesAcrossChunks_dropsLineEndings_andKeepsThePartialLastLineForTheEnd() {
        var lines = ServiceOutputLines()
        #expect(lines.append(Array("one\ntw".utf8)) == [.line("one")])
        #expect(lines.append(Array("o\r\n\nthree".utf8)) == [.line("two"), .line("")])
        #expect(lines.finish() == "three")
        #expect(lines.finish() == nil)
    }

    @Test func append_aLineLongerThanTheLimit_isCutWithANoteOfItsLength() {
        var lines = ServiceOutputLines(lineLimit: 4)
        #expect(lines.append(Array("abcdefgh".utf8)) == [])
        #expect(lines.append(Array("ij\nok\n".utf8)) == [.line("abcd… (line cut at 4 of 10 bytes)"), .line("ok")])
    }

    @Test func append_findsTheTextOnce_evenSplitAcrossChunks_beforeTheLineThatHoldsIt() {
        var lines = ServiceOutputLines(needle: "listening on")
        #expect(lines.append(Array("starting\nnow listen".utf8)) == [.line("starting")])
        #expect(lines.append(Array("ing on 8080".utf8)) == [.matched])
        #expect(lines.append(Array("\nlistening on 8081\n".utf8)) == [.line("now listening on 8080"), .line("listening on 8081")])
        #expect(lines.hasMatched)
    }

    @Test func append_findsTheText_pastTheLineLimit_evenSplitAcrossChunks() {
        var lines = ServiceOutputLines(lineLimit: 4, needle: "ready")
        #expect(lines.append(Array("abcdefgh rea".utf8)) == [])
        #expect(lines.append(Array("dy".utf8)) == [.matched])
        #expect(lines.append(Array("\n".utf8)) == [.line("abcd… (line cut at 4 of 14 bytes)")])
    }

    @Test func append_textSplitAcrossALineBreak_afterALongLine_doesNotMatch() {
        var lines = ServiceOutputLines(lineLimit: 4, needle: "ready")
        #expect(lines.append(Array("abcdefgh rea\ndy\n".utf8)) == [.line("abcd… (line cut at 4 of 12 bytes)"), .line("dy")])
        #expect(!lines.hasMatched)
    }

    @Test func append_textAcrossALineBreak_doesNotMatch() {
        var lines = ServiceOutputLines(needle: "ab")
        #expect(lines.append(Array("a\nb\n".utf8)) == [.line("a"), .line("b")])
        #expect(!lines.hasMatched)
    }
}

@Suite struct ProbeScheduleTests {
    @Test func nextDelay_startsAtOneMillisecond_andDoublesUpToTheInterval() {
        var schedule = ProbeSchedule(interval: .milliseconds(10))
        let delays = (0..<6).map { _ in schedule.nextDelay() }
        #expect(delays == [.milliseconds(1), .milliseconds(2), .milliseconds(4), .milliseconds(8), .milliseconds(10), .milliseconds(10)])
    }

    @Test func nextDelay_neverExceedsAnIntervalShorterThanTheFirstDelay() {
        var schedule = ProbeSchedule(interval: .microseconds(500))
        #expect(schedule.nextDelay() == .microseconds(500))
        #expect(schedule.nextDelay() == .microseconds(500))
    }
}

@Suite struct ProbeDoorbellTests {
    @Test func wait_afterARing_returnsAtOnceAsRung_andTheRingIsUsedUp() async {
        let doorbell = ProbeDoorbell()
        doorbell.ring()
        #expect(await doorbell.wait(upTo: .seconds(3_600)))
        #expect(await doorbell.wait(upTo: .milliseconds(1)) == false)
    }

    @Test func wait_thatRefusesRings_endsAtItsDelay() async {
        let doorbell = ProbeDoorbell()
        doorbell.ring()
        #expect(await doorbell.wait(upTo: .milliseconds(1), ringable: false) == false)
    }

    @Test func wait_endsWhenItsTaskIsCancelled() async {
        let doorbell = ProbeDoorbell()
        let waiting = Task { await doorbell.wait(upTo: .seconds(3_600)) }
        waiting.cancel()
        #expect(await waiting.value == false)
    }
}
