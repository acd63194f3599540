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

struct TargetTests {
    private func result(_ variant: String, _ seconds: Double, rss: Int? = nil) -> WorkloadResult {
        var result = WorkloadResult(variant: variant, seconds: seconds, items: 700, unit: "objects")
        result.peakResidentBytes = rss
        return result
    }

    @Test func aTargetDividesByItsOwnGRDBVariantNotGRDBsHeadline() throws {
        let w3 = try #require(Target.all.first { $0.workload == .w3PointLookups })
        let logbook = [result("#Predicate", 0.1)]
        let grdb = [result("query interface", 1.0), result("cached statement", 0.4)]
        #expect(w3.ratio(logbook: logbook, grdb: grdb) == 4)
        #expect(w3.isMet(by: 4) == false)
        #expect(w3.isMet(by: 5))
    }

    @Test func w6ComparesPeakMemoryWithGRDBsFastestLoad() throws {
        let w6 = try #require(Target.all.first { $0.title.hasPrefix("W6") })
        let logbook = [result("open, fetch, touch", 0.5, rss: 300), result("open only", 0.3, rss: 250)]
        let grdb = [result("associations", 3, rss: 500), result("3 requests, grouped", 2, rss: 400)]
        #expect(w6.ratio(logbook: logbook, grdb: grdb) == 0.75)
        #expect(w6.isMet(by: 0.75))
        #expect(w6.isMet(by: 1.01) == false)
    }

    @Test func theReportJudgesATargetByTheMedianOfItsRounds() throws {
        var report = ResultTableTests.report(logbook: true)
        let w1 = try #require(Target.all.first { $0.workload == .w1DurableAppend })
        report.targetRounds[w1.title] = [9, 12, 10.5]
        let lines = Target.lines(report)
        #expect(
            lines.first
                == "Target W1 durable append ≥ 10× GRDB (sync NORMAL): 10.50× (median of the rounds' 9.00×, 12.00×, 10.50×), met"
        )
        #expect(lines.contains("Target W3 lookups by unique name ≥ 5× GRDB's cached statement: not measured"))
        #expect(ResultTable.render(report).contains(lines[0]))
    }

    @Test func withoutRoundsATargetIsJudgedByTheTablesRows() {
        // The report's GRDB W1 row is "sync NORMAL", 5 s; Logbook's 0.5 s.
        let lines = Target.lines(ResultTableTests.report(logbook: true))
        #expect(lines.first == "Target W1 durable append ≥ 10× GRDB (sync NORMAL): 10.00×, met")
    }
}
