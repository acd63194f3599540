import Foundation
import SampleTrips
import Testing

@testable import Logbook

/// A save applies its inserts to the projection from the values it has just encoded; opening
/// the store again applies the same events from their bytes. Both must end in the same rows.
struct SavedProjectionTests {
    /// Every live object of every table, by entity name and identifier.
    private func rows(_ container: ModelContainer) -> [String: [UInt64: Row]] {
        container.store.read { state in
            var result: [String: [UInt64: Row]] = [:]
            for table in state.projection.tables {
                var rows: [UInt64: Row] = [:]
                for (id, slot) in table.identifiersInOrder() { rows[id] = table.row(at: slot) }
                result[table.entity.name] = rows
            }
            return result
        }
    }

    @Test func tripsSavedWithUpsertsAndReferencesEndInTheRowsAReplayRebuilds() throws {
        let store = TestStore(.disk)
        let saved: [String: [UInt64: Row]]
        do {
            let container = try store.container()
            let context = ModelContext(container)
            for save in 0..<3 {
                for index in 0..<12 {
                    // Names repeat within a save and across saves: upserts fold them.
                    let trip = makeTrip("Trip \((save * 12 + index) % 17)", offset: Double(index))
                    context.insert(trip)
                    for item in 0..<(index % 4) {
                        trip.bucketList?.append(makeItem("Item \(save)-\(index)-\(item)"))
                    }
                    if index % 3 != 0 {
                        // Inserted before the trip refers to it: an update follows the inserts.
                        let stay = LivingAccommodation(address: "\(index) Rua Augusta", placeName: "Stay \(index)")
                        trip.livingAccommodation = stay
                    }
                }
                try context.save()
            }
            // An item whose trip was inserted before it, in a save of its own.
            let trip = makeTrip("Trip 3")
            context.insert(trip)
            try context.save()
            let item = makeItem("Late item")
            context.insert(item)
            item.trip = trip
            try context.save()
            saved = rows(container)
            #expect(saved["Trip"]?.count == 17)
            #expect(saved["BucketListItem"]?.count == 55)
        }
        _ = try store.reopenedContext()
        #expect(rows(try store.container()) == saved)
    }

    @Test func everyAttributeTypeEndsInTheRowsAReplayRebuilds() throws {
        let store = TestStore(.disk)
        let types: [any PersistentModel.Type] = [EveryType.self, Badge.self]
        let saved: [String: [UInt64: Row]]
        do {
            let container = try ModelContainer(for: Schema(types), configurations: [store.configuration])
            let context = ModelContext(container)
            let model = EveryType()
            model.string = String(repeating: "long text ", count: 20)
            model.uuid = UUID()
            model.data = Data([0, 1, 2, 255])
            model.decimal = Decimal(string: "12.345") ?? 0
            model.strings = ["a", "b"]
            model.address = Address(street: "1 Main St", city: "Lisbon")
            context.insert(model)
            context.insert(EveryType())
            context.insert(Badge(code: "A", token: UUID(), tags: ["x"]))
            context.insert(Badge(code: "A", token: UUID(), tags: ["y", "z"]))
            try context.save()
            context.insert(Badge(code: "A", token: UUID(), tags: []))
            try context.save()
            saved = rows(container)
            #expect(saved["Badge"]?.count == 1)
        }
        let reopened = try ModelContainer(for: Schema(types), configurations: [store.configuration])
        #expect(rows(reopened) == saved)
    }
}
