import BenchmarkHarness
import Testing

struct ResultTableTests {
    static func report(logbook: Bool) -> ComparisonReport {
        var report = ComparisonReport(
            date: "2026-01-01T00:00:00Z",
            machine: MachineInfo(
                cores: 2,
                processor: "test",
                memoryGiB: 1,
                system: "test",
                kernel: "0",
                buildConfiguration: "release"
            ),
            tripCount: 100,
            seed: 1
        )
        var grdb = WorkloadResult(
            variant: "sync NORMAL",
            timing: Timing(seconds: 5, cpuSeconds: 4.25),
            items: 700,
            unit: "rows"
        )
        grdb.bytes = 50_000_000
        grdb.peakResidentBytes = 200 << 20
        report.entries.append(.init(workload: .w1DurableAppend, side: .grdb, measurement: grdb))
        var load = WorkloadResult(seconds: 2, items: 700, unit: "objects")
        load.peakResidentBytes = 208 << 20
        report.entries.append(.init(workload: .w2OpenAndLoad, side: .grdb, measurement: load))
        if logbook {
            report.entries.append(
                .init(
                    workload: .w1DurableAppend,
                    side: .logbook,
                    measurement: .init(seconds: 0.5, items: 700, unit: "events")
                )
            )
            var logbookLoad = WorkloadResult(seconds: 0.4, items: 700, unit: "objects")
            logbookLoad.peakResidentBytes = 104 << 20
            report.entries.append(.init(workload: .w2OpenAndLoad, side: .logbook, measurement: logbookLoad))
        }
        return report
    }

    @Test func aMissingSideShowsDashes() {
        let lines = ResultTable.table(Self.report(logbook: false))
        let w1 = lines.filter { $0.contains("W1 durable append") || $0.contains("GRDB (sync NORMAL)") }
        #expect(w1.count == 2)
        #expect(w1[0].contains("Logbook"))
        #expect(w1[0].filter { $0 == "—" }.count == 5)
        #expect(w1[1].contains("5.00 s"))
        #expect(w1[1].contains("4.25 s"))
        #expect(w1[1].contains("140 rows/s"))
        #expect(w1[1].contains("10.0"))
        #expect(w1[1].hasSuffix("—"))
    }

    @Test func w4IsPrintedAgainstAFreshV3OpenAndAgainstItsReopen() {
        var report = Self.report(logbook: true)
        #expect(!ResultTable.render(report).contains("W4 Logbook"), "no line without a migration row")
        let rows = [
            (WorkloadID.w2OpenAndLoad, "open only", 1.5), (.w4OpenThroughMigration, "V1 → V3 migration", 1.8),
            (.w4OpenThroughMigration, "reopen, migrated", 1.2),
        ]
        for (workload, variant, seconds) in rows {
            report.entries.append(
                .init(
                    workload: workload,
                    side: .logbook,
                    measurement: .init(variant: variant, seconds: seconds, items: 700, unit: "objects")
                )
            )
        }
        let text = ResultTable.render(report)
        #expect(
            text.contains(
                "W4 Logbook: the migration takes 1.20× a fresh V3 open of the same data (1.80 s against W2's open only, 1.50 s)"
            )
        )
        #expect(
            text.contains(
                "W4 Logbook: the migration takes 1.50× reopening the migrated store in the same process (1.20 s)"
            )
        )
    }

    @Test func w1IsAlsoPrintedCountingTheModelsFreedElsewhere() {
        var report = Self.report(logbook: true)
        #expect(!ResultTable.render(report).contains("counting the freeing"), "no line without the row")
        report.entries.append(
            .init(
                workload: .w1DurableAppend,
                side: .logbook,
                measurement: .init(variant: WorkloadID.w1ModelsFreed, seconds: 0.625, items: 700, unit: "objects")
            )
        )
        let text = ResultTable.render(report)
        #expect(
            text.contains(
                "W1 Logbook, counting the freeing of the context's models on another thread: 625.0 ms, 8.00× GRDB's 5.00 s"
            )
        )
        let w1 = ResultTable.table(report).first { $0.contains("GRDB (sync NORMAL)") }
        #expect(w1?.hasSuffix("10.00×") == true, "the headline still compares the first Logbook row")
    }

    @Test func w9PrintsEachSidesStoreBytesByKindUnderTheTable() throws {
        var report = Self.report(logbook: true)
        #expect(!ResultTable.render(report).contains("store bytes"), "no line without a W9 row")
        var logbook = WorkloadResult(seconds: 2, items: 700, unit: "objects")
        logbook.storeBytes = StoreBytes(
            before: ["segments": 90_000_000, "other": 32],
            after: ["base": 30_000_000, "fence": 32, "other": 32]
        )
        var grdb = WorkloadResult(seconds: 4, items: 700, unit: "rows")
        grdb.storeBytes = StoreBytes(before: ["database": 50_000_000], after: ["database": 40_000_000])
        report.entries.append(.init(workload: .w9DeleteHistory, side: .logbook, measurement: logbook))
        report.entries.append(.init(workload: .w9DeleteHistory, side: .grdb, measurement: grdb))
        let text = ResultTable.render(report)
        #expect(
            text.contains(
                "W9 Logbook store bytes: 90.0 MB before (other 32 bytes, segments 90.0 MB), "
                    + "30.0 MB after (base 30.0 MB, fence 32 bytes, other 32 bytes): 0.33× of before"
            )
        )
        #expect(
            text.contains(
                "W9 GRDB store bytes: 50.0 MB before (database 50.0 MB), 40.0 MB after (database 40.0 MB): 0.80× of before"
            )
        )
        let row = try #require(ResultTable.table(report).first { $0.contains("2.00×") })
        #expect(row.contains("GRDB"), "GRDB's time over Logbook's: \(row)")
    }

    @Test func ratiosCompareTimesAndPeakMemory() throws {
        let lines = ResultTable.table(Self.report(logbook: true))
        let w1 = try #require(lines.first { $0.contains("GRDB (sync NORMAL)") })
        #expect(w1.hasSuffix("10.00×"))
        let w6 = try #require(lines.last)
        #expect(w6.contains("208 MiB"))
        #expect(w6.hasSuffix("0.50×"))
    }

    @Test func numbersAreGroupedWithoutTheLocale() {
        #expect(ResultTable.grouped(1_234_567.4) == "1,234,567")
        #expect(ResultTable.grouped(999) == "999")
        #expect(ResultTable.duration(0.0123) == "12.3 ms")
        #expect(ResultTable.size(63_912_345) == "63.9 MB")
        #expect(ResultTable.size(4_321) == "4.3 kB")
    }
}
