import Foundation
import Logbook
import SampleTrips
import Testing

@testable import Logbook

extension NotesPlanSuites {
    /// Random V1 histories and random `willMigrate` scripts, migrated through ``ScriptedPlan``,
    /// against a plain model of the rules: apply the V1 changes and the script at V1, then fold
    /// the trips that share a name (oldest identifier kept, newest values, items united), then
    /// rename to V3.
    @Suite(.serialized)
    struct StageBoundaryPropertyTests {
        /// The model: trips by start day, which is also their order of insertion; items by title.
        struct Model {
            struct ModelTrip {
                var name: String
                var destination: String
            }
            var trips: [Int: ModelTrip] = [:]
            var items: [String: Int?] = [:]

            mutating func deleteTrip(_ day: Int) {
                trips[day] = nil
                for (title, trip) in items where trip == day { items[title] = .some(nil) }
            }

            /// The V3 state: by name, the destination, start day and item titles of the fold.
            func folded() -> [String: StageBoundaryTests.TripState] {
                var result: [String: StageBoundaryTests.TripState] = [:]
                for day in trips.keys.sorted() {
                    guard let trip = trips[day] else { continue }
                    let own = Set(items.filter { $0.value == day }.map(\.key))
                    let earlier = result[trip.name]?.items ?? []
                    result[trip.name] = StageBoundaryTests.TripState(
                        destination: trip.destination,
                        startDay: day,
                        endDay: day + 7,
                        items: earlier.union(own),
                        stay: nil
                    )
                }
                return result
            }
        }

        static let names = ["Lisbon", "Porto", "Oslo", "Rome"]

        /// Writes a random V1 history and returns the model of it; draws a script for it.
        static func writeHistory(
            _ url: URL,
            _ random: inout SeededGenerator
        ) throws -> (Model, [ScriptedEdit]) {
            var model = Model()
            let context = ModelContext(
                try ModelContainer(for: TripV1.self, configurations: ModelConfiguration(url: url))
            )
            var live: [Int: TripV1] = [:]
            var liveItems: [String: SampleTripsSchemaV1.BucketListItem] = [:]
            var nextDay = 0
            var nextItem = 0
            func addItem(to day: Int) {
                guard let trip = live[day] else { return }
                let title = "Item \(nextItem)"
                nextItem += 1
                let item = SampleTripsSchemaV1.BucketListItem(
                    title: title,
                    details: "",
                    hasReservation: false,
                    isInPlan: true
                )
                context.insert(item)
                item.trip = trip
                liveItems[title] = item
                model.items[title] = .some(day)
            }
            for _ in 0..<Int.random(in: 6...24, using: &random) {
                let liveDays = live.keys.sorted()
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<4:
                    let day = nextDay
                    nextDay += 1
                    let name = names.randomElement(using: &random) ?? "Lisbon"
                    let trip = TripV1(
                        name: name,
                        destination: "Destination \(day)",
                        start_date: boundaryBaseDate + Double(day) * 86_400,
                        end_date: boundaryBaseDate + Double(day + 7) * 86_400
                    )
                    context.insert(trip)
                    live[day] = trip
                    model.trips[day] = Model.ModelTrip(name: name, destination: "Destination \(day)")
                    addItem(to: day)
                case 4:
                    guard let day = liveDays.randomElement(using: &random), let trip = live[day] else { continue }
                    trip.destination += "+"
                    model.trips[day]?.destination += "+"
                case 5:
                    guard let day = liveDays.randomElement(using: &random), let trip = live[day] else { continue }
                    context.delete(trip)
                    live[day] = nil
                    model.deleteTrip(day)
                case 6:
                    guard let day = liveDays.randomElement(using: &random) else { continue }
                    addItem(to: day)
                case 7:
                    guard let day = liveDays.randomElement(using: &random), let trip = live[day],
                        let title = liveItems.keys.sorted().randomElement(using: &random), let item = liveItems[title]
                    else { continue }
                    item.trip = trip
                    model.items[title] = .some(day)
                default:
                    try context.save()
                }
            }
            try context.save()

            var script: [ScriptedEdit] = []
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                let liveDays = model.trips.keys.sorted()
                guard let day = liveDays.randomElement(using: &random) else { break }
                switch Int.random(in: 0..<5, using: &random) {
                case 0:
                    let name = names.randomElement(using: &random) ?? "Lisbon"
                    script.append(.rename(trip: day, to: name))
                    model.trips[day]?.name = name
                case 1:
                    script.append(.setDestination(trip: day, to: "Edited \(day)"))
                    model.trips[day]?.destination = "Edited \(day)"
                case 2:
                    script.append(.delete(trip: day))
                    model.deleteTrip(day)
                case 3:
                    guard let title = model.items.keys.sorted().randomElement(using: &random) else { continue }
                    script.append(.moveItem(title: title, toTrip: day))
                    model.items[title] = .some(day)
                default:
                    guard let title = model.items.keys.sorted().randomElement(using: &random) else { continue }
                    script.append(.deleteItem(title: title))
                    model.items[title] = nil
                }
            }
            return (model, script)
        }

        @Test(arguments: 0..<40)
        func theMigratedStateIsTheModelsFoldOfTheV1ChangesAndTheScript(seed: UInt64) throws {
            var random = SeededGenerator(seed: seed)
            let directory = TemporaryDirectory()
            let url = URL(fileURLWithPath: directory.child("trips.store"))
            let (model, script) = try Self.writeHistory(url, &random)
            willMigrateScript.withLock { $0 = script }
            defer { willMigrateScript.withLock { $0 = [] } }
            let expected = model.folded()
            for open in ["migrating", "next"] {
                var found = try StageBoundaryTests.state(url, through: ScriptedPlan.self)
                for name in found.keys { found[name]?.stay = nil }
                #expect(found == expected, "seed \(seed), \(open) open, script \(script)")
                let context = ModelContext(
                    try ModelContainer(
                        for: Trip.self,
                        migrationPlan: ScriptedPlan.self,
                        configurations: ModelConfiguration(url: url)
                    )
                )
                #expect(try context.fetchCount(FetchDescriptor<BucketListItem>()) == model.items.count, "seed \(seed)")
            }
        }
    }
}
