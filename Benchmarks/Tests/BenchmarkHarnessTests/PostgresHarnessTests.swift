import BenchmarkHarness
import Testing

struct PercentilesTests {
    @Test func nearestRankReturnsAMeasuredValue() throws {
        let values: [Double] = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6]
        #expect(Percentiles.value(50, of: values) == 5)
        #expect(Percentiles.value(90, of: values) == 9)
        #expect(Percentiles.value(99, of: values) == 10)
        #expect(Percentiles.value(100, of: values) == 10)
        #expect(Percentiles.value(0, of: values) == 1)
        #expect(Percentiles.value(10, of: values) == 1)
        #expect(Percentiles.value(11, of: values) == 2)
    }

    @Test func p99OfAThousandIsTheTenthLargest() throws {
        let values = (1...1_000).reversed().map(Double.init)
        #expect(Percentiles.value(99, of: values) == 990)
        #expect(Percentiles.value(50, of: values) == 500)
    }

    @Test func anEmptySampleHasNoPercentileAndOneValueIsEveryPercentile() {
        #expect(Percentiles.value(50, of: []) == nil)
        #expect(Percentiles.value(1, of: [7]) == 7)
        #expect(Percentiles.value(99, of: [7]) == 7)
    }
}

struct CountListTests {
    @Test func parsesCommaSeparatedPositiveCounts() {
        #expect(CountList.parse("1,2,4") == [1, 2, 4])
        #expect(CountList.parse(" 4 , 1") == [4, 1])
        #expect(CountList.parse("3") == [3])
    }

    @Test func refusesEmptyZeroNegativeRepeatedAndNonNumericCounts() {
        #expect(CountList.parse("") == nil)
        #expect(CountList.parse("1,,2") == nil)
        #expect(CountList.parse("0") == nil)
        #expect(CountList.parse("-1,2") == nil)
        #expect(CountList.parse("1,1") == nil)
        #expect(CountList.parse("two") == nil)
    }
}

struct WallClockTests {
    @Test func readsTheTimeOfDayInNanoseconds() {
        let first = WallClock.nanoseconds()
        let second = WallClock.nanoseconds()
        // After 2020-01-01 and not before the first reading.
        #expect(first > 1_577_836_800 * 1_000_000_000)
        #expect(second >= first)
    }
}
