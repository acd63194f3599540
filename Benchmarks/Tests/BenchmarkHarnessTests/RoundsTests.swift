import BenchmarkHarness
import Testing

struct RoundsTests {
    private func result(_ variant: String, _ seconds: Double, rss: Int = 0) -> WorkloadResult {
        var result = WorkloadResult(variant: variant, seconds: seconds, items: 700, unit: "objects")
        result.peakResidentBytes = rss
        return result
    }

    @Test func eachVariantShowsItsOwnMedianRoundWithThatRoundsFigures() throws {
        let rounds = [
            [result("durable", 0.90, rss: 1), result("relaxed", 0.70, rss: 11)],
            [result("durable", 0.80, rss: 2), result("relaxed", 0.75, rss: 12)],
            [result("durable", 1.20, rss: 3), result("relaxed", 0.60, rss: 13)],
        ]
        let medians = Rounds.medians(of: rounds)
        #expect(medians.map(\.variant) == ["durable", "relaxed"])
        #expect(medians.map(\.seconds) == [0.90, 0.70])
        // The whole round's result, not only its time.
        #expect(medians.map(\.peakResidentBytes) == [1, 11])
    }

    @Test func anEvenNumberOfRoundsShowsTheFasterOfTheMiddleTwo() {
        let rounds = [[result("a", 4)], [result("a", 1)], [result("a", 3)], [result("a", 2)]]
        #expect(Rounds.medians(of: rounds).map(\.seconds) == [2])
        #expect(Rounds.median([4, 1, 3, 2]) == 2)
        #expect(Rounds.median([]) == nil)
        #expect(Rounds.medians(of: []).isEmpty)
    }

    @Test func theNoteGivesEveryRoundAndTheMedianOfTheRoundsRatios() {
        let logbook = [[result("durable", 0.8)], [result("durable", 0.7)], [result("durable", 1.0)]]
        let grdb = [[result("sync NORMAL", 8.0)], [result("sync NORMAL", 6.3)], [result("sync NORMAL", 7.0)]]
        #expect(Rounds.ratios(logbook: logbook, grdb: grdb) == [10, 9, 7])
        let note = Rounds.note(.w1DurableAppend, [.logbook: logbook, .grdb: grdb], sides: [.logbook, .grdb])
        #expect(
            note
                == "W1 durable append, 3 rounds, the sides' order alternating; the table shows each row's median "
                + "round. Logbook (durable) 800.0 ms, 700.0 ms, 1.00 s; GRDB (sync NORMAL) 8.00 s, 6.30 s, 7.00 s; "
                + "Logbook÷GRDB by round 10.00×, 9.00×, 7.00× (median 9.00×)"
        )
    }

    @Test func oneSideAloneHasNoRatio() {
        let note = Rounds.note(.w3PointLookups, [.logbook: [[result("#Predicate", 0.09)]]], sides: [.logbook])
        #expect(note.hasSuffix("Logbook (#Predicate) 90.0 ms"))
        #expect(!note.contains("÷"))
    }
}
