import Foundation
import Logbook
import SampleTrips
import Testing

@testable import Logbook

extension NotesPlanSuites {
    /// The changes a `willMigrate` saves are made under the old version's rules, before the new
    /// version's unique constraint applies; `didMigrate` runs after the constraint folded what
    /// duplicates were left. Every scenario is checked after the migrating open and after another.
    @Suite(.serialized)
    struct StageBoundaryTests {
        /// What a test compares of a trip at version 3.
        struct TripState: Equatable, CustomStringConvertible {
            var destination: String
            var startDay: Int
            var endDay: Int
            var items: Set<String>
            var stay: String?

            var description: String {
                "\(destination) day \(startDay)–\(endDay) items \(items.sorted()) stay \(stay ?? "none")"
            }
        }

        /// Trips 0 to 199; trips 180 to 199 repeat the names of trips 0 to 19. Trip *n* starts
        /// on day *n* and has items "Item n.0" and "Item n.1" and the accommodation "Stay n".
        /// A repeat of an even-numbered trip ends after it, a repeat of an odd-numbered one
        /// before it.
        static func talkTrips() -> [SampleData.TripRecord] {
            (0..<200).map { n in
                let repeated = n >= 180 ? n - 180 : nil
                let endDay = repeated.map { $0 % 2 == 0 ? n + 7 : $0 + 3 } ?? n + 7
                return SampleData.TripRecord(
                    name: "Trip \(repeated ?? n)",
                    destination: "Destination \(n)",
                    startDate: boundaryBaseDate + Double(n) * 86_400,
                    endDate: boundaryBaseDate + Double(endDay) * 86_400,
                    bucketList: (0..<2).map {
                        SampleData.BucketListRecord(
                            title: "Item \(n).\($0)",
                            details: "",
                            hasReservation: false,
                            isInPlan: true
                        )
                    },
                    accommodation: SampleData.AccommodationRecord(address: "\(n) Quay", placeName: "Stay \(n)")
                )
            }
        }

        /// The state of trip `n` as written, with other items and another stay if given.
        static func written(_ n: Int, items: Set<String>? = nil, stay: Int? = nil, mark: String = "") -> TripState {
            let repeated = n >= 180 ? n - 180 : nil
            return TripState(
                destination: "Destination \(n)\(mark)",
                startDay: n,
                endDay: repeated.map { $0 % 2 == 0 ? n + 7 : $0 + 3 } ?? n + 7,
                items: items ?? ["Item \(n).0", "Item \(n).1"],
                stay: "Stay \(stay ?? n)"
            )
        }

        static func writeV1(_ url: URL, _ trips: [SampleData.TripRecord], tripsPerSave: Int = 50) throws {
            let context = ModelContext(
                try ModelContainer(for: TripV1.self, configurations: ModelConfiguration(url: url))
            )
            try SampleData.insertV1(trips, into: context, tripsPerSave: tripsPerSave)
        }

        /// The trips at version 3, by name, read through `plan`.
        static func state(
            _ url: URL,
            through plan: any SchemaMigrationPlan.Type,
            syscalls: (any Syscalls)? = nil
        ) throws -> [String: TripState] {
            var configuration = ModelConfiguration(url: url)
            if let syscalls { configuration.syscalls = syscalls }
            let context = ModelContext(
                try ModelContainer(for: Trip.self, migrationPlan: plan, configurations: configuration)
            )
            var result: [String: TripState] = [:]
            for trip in try context.fetch(FetchDescriptor<Trip>()) {
                #expect(result[trip.name] == nil, "one trip per name: \(trip.name)")
                result[trip.name] = TripState(
                    destination: trip.destination,
                    startDay: dayNumber(trip.startDate),
                    endDay: dayNumber(trip.endDate),
                    items: Set((trip.bucketList ?? []).map(\.title)),
                    stay: trip.livingAccommodation?.placeName
                )
            }
            return result
        }

        /// Opens the store through `plan` twice and checks both opens against `expected`.
        func expectMigrated(
            _ url: URL,
            through plan: any SchemaMigrationPlan.Type,
            to expected: [String: TripState],
            sourceLocation: SourceLocation = #_sourceLocation
        ) throws {
            for open in ["the migrating open", "the next open"] {
                let found = try Self.state(url, through: plan)
                #expect(found.count == expected.count, "\(open): trips", sourceLocation: sourceLocation)
                for (name, trip) in expected where found[name] != trip {
                    Issue.record(
                        "\(open): \(name) is \(found[name].map(String.init(describing:)) ?? "missing"), expected \(trip)",
                        sourceLocation: sourceLocation
                    )
                }
            }
        }

        @Test func deletingDuplicatesInWillMigrateKeepsTheTripsItKept() throws {
            let directory = TemporaryDirectory()
            let url = URL(fileURLWithPath: directory.child("trips.store"))
            try Self.writeV1(url, Self.talkTrips())
            var expected: [String: TripState] = [:]
            for k in 0..<180 {
                // The kept trip of a repeated name is the one that ends later.
                let kept = k < 20 && k % 2 == 0 ? 180 + k : k
                expected["Trip \(k)"] = Self.written(kept)
            }
            try expectMigrated(url, through: TalkDedupePlan.self, to: expected)
            let context = ModelContext(
                try ModelContainer(
                    for: Trip.self,
                    migrationPlan: TalkDedupePlan.self,
                    configurations: ModelConfiguration(url: url)
                )
            )
            // The deleted trips' items stay, without a trip (V1's nullify rule).
            #expect(try context.fetchCount(FetchDescriptor<BucketListItem>()) == 400)
        }

        /// The talk's trips after a dedupe that keeps the trip of each repeated name that ends
        /// later, with the other's items moved to it.
        static func keptLaterEndingWithEveryItem() -> [String: TripState] {
            var expected: [String: TripState] = [:]
            for k in 0..<180 {
                guard k < 20 else {
                    expected["Trip \(k)"] = written(k)
                    continue
                }
                let kept = k % 2 == 0 ? 180 + k : k
                let items: Set = ["Item \(k).0", "Item \(k).1", "Item \(180 + k).0", "Item \(180 + k).1"]
                expected["Trip \(k)"] = written(kept, items: items)
            }
            return expected
        }

        @Test func itemsMovedToTheKeptTripBeforeTheDeleteStayWithIt() throws {
            let directory = TemporaryDirectory()
            let url = URL(fileURLWithPath: directory.child("trips.store"))
            try Self.writeV1(url, Self.talkTrips())
            let expected = Self.keptLaterEndingWithEveryItem()
            try expectMigrated(url, through: MovingDedupePlan.self, to: expected)
        }

        @Test func renamingOneOfTwoDuplicatesInWillMigrateKeepsBoth() throws {
            let directory = TemporaryDirectory()
            let url = URL(fileURLWithPath: directory.child("trips.store"))
            try Self.writeV1(url, Self.talkTrips())
            var expected: [String: TripState] = [:]
            for k in 0..<180 {
                guard k < 20 else {
                    expected["Trip \(k)"] = Self.written(k)
                    continue
                }
                let (kept, renamed) = k % 2 == 0 ? (180 + k, k) : (k, 180 + k)
                expected["Trip \(k)"] = Self.written(kept)
                expected["Trip \(k) (earlier)"] = Self.written(renamed)
            }
            #expect(expected.count == 200)
            try expectMigrated(url, through: RenamingPlan.self, to: expected)
        }

        /// What V2's constraint alone makes of the talk's trips: the later insert's values win,
        /// the bucket lists are united, and its accommodation replaces the earlier one's.
        static func folded(mark: String = "") -> [String: TripState] {
            var expected: [String: TripState] = [:]
            for k in 0..<180 {
                expected["Trip \(k)"] =
                    k < 20
                    ? written(
                        180 + k,
                        items: ["Item \(k).0", "Item \(k).1", "Item \(180 + k).0", "Item \(180 + k).1"],
                        mark: mark
                    )
                    : written(k, mark: mark)
            }
            return expected
        }

        @Test func didMigrateSeesTheFoldedTripsAndItsEditsStay() throws {
            let directory = TemporaryDirectory()
            let url = URL(fileURLWithPath: directory.child("trips.store"))
            try Self.writeV1(url, Self.talkTrips())
            didMigrateSaw.withLock { $0 = [] }
            try expectMigrated(url, through: DidMigrateEditsPlan.self, to: Self.folded(mark: " ✓"))
            let saw = didMigrateSaw.withLock { $0 }
            #expect(saw.count == 180, "didMigrate runs under V2's rules, after the fold")
            #expect(Set(saw).count == 180)
        }

        @Test func withLightweightStagesAloneTheConstraintFoldsTheDuplicates() throws {
            let directory = TemporaryDirectory()
            let url = URL(fileURLWithPath: directory.child("trips.store"))
            try Self.writeV1(url, Self.talkTrips())
            try expectMigrated(url, through: SampleTripsLightweightPlan.self, to: Self.folded())
        }

        @Test func theSamplePlanKeepsTheLaterEndingTripWithEveryItem() throws {
            let directory = TemporaryDirectory()
            let url = URL(fileURLWithPath: directory.child("trips.store"))
            try Self.writeV1(url, Self.talkTrips())
            let expected = Self.keptLaterEndingWithEveryItem()
            try expectMigrated(url, through: SampleTripsMigrationPlan.self, to: expected)
            let context = ModelContext(
                try ModelContainer(
                    for: Trip.self,
                    migrationPlan: SampleTripsMigrationPlan.self,
                    configurations: ModelConfiguration(url: url)
                )
            )
            #expect(try context.fetchCount(FetchDescriptor<BucketListItem>()) == 400)
            // The deleted duplicates' accommodations stay, without a trip: the kept trips had one.
            #expect(try context.fetchCount(FetchDescriptor<LivingAccommodation>()) == 200)
        }

        @Test func thePreviewStillCountsWhatTheConstraintWouldFold() throws {
            let directory = TemporaryDirectory()
            let url = URL(fileURLWithPath: directory.child("trips.store"))
            try Self.writeV1(url, Self.talkTrips())
            let preview = try ModelContainer.previewMigration(
                for: Trip.self,
                migrationPlan: SampleTripsLightweightPlan.self,
                configuration: ModelConfiguration(url: url)
            )
            #expect(preview.stages.first?.folded == ["Trip": 20])
            #expect(preview.stages.first?.newlyUnique == ["Trip.name"])
        }

        /// The power fails at every call that changes a file while the talk's plan migrates a
        /// small store whose saves roll segments; the next open, with a working disk, finishes the
        /// migration and gives the same trips as an undisturbed one.
        @Test(arguments: PowerLossSyscalls.Mode.allCases)
        func aPowerLossDuringTheStagesEndsInTheSameState(mode: PowerLossSyscalls.Mode) throws {
            let directory = TemporaryDirectory()
            let template = URL(fileURLWithPath: directory.child("template"))
            let trips = Self.talkTrips().enumerated().filter { $0.offset < 6 || ($0.offset >= 180 && $0.offset < 184) }
                .map(\.element)
            try Self.writeV1(template, trips, tripsPerSave: 3)

            let reference = URL(fileURLWithPath: directory.child("reference"))
            try FileManager.default.copyItem(at: template, to: reference)
            let counting = PowerLossSyscalls(powerFailsAt: nil)
            let expected = try Self.state(reference, through: TalkDedupePlan.self, syscalls: counting)
            #expect(expected.count == 6)
            let calls = counting.calls
            #expect(calls >= 4, "the migration changes files: \(calls) calls")

            for point in 1...calls {
                let store = URL(fileURLWithPath: directory.child("case-\(point)"))
                try FileManager.default.copyItem(at: template, to: store)
                let syscalls = PowerLossSyscalls(powerFailsAt: point)
                // The open fails where the power goes, except in the durable record written as
                // the container closes, whose failure is only logged.
                _ = try? Self.state(store, through: TalkDedupePlan.self, syscalls: syscalls)
                #expect(syscalls.powerFailed, "power lost at call \(point) of \(calls)")
                try syscalls.losePower(mode: mode, tearAt: Double(point % 7 + 1) / 8)
                for open in ["first", "second"] {
                    let found = try Self.state(store, through: TalkDedupePlan.self)
                    #expect(found == expected, "\(mode), power lost at call \(point) of \(calls), \(open) open after")
                }
                try FileManager.default.removeItem(at: store)
            }
        }
    }
}
