import Foundation
import Logbook
import Testing

/// A hierarchy whose base class's `plate` becomes unique in a later release.
enum GarageV1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Vehicle.self, Car.self, Truck.self] }

    @Model
    class Vehicle {
        var plate: String
        var colour: String

        init(plate: String, colour: String) {
            self.plate = plate
            self.colour = colour
        }
    }

    @Model
    final class Car: Vehicle {
        var seats: Int

        init(plate: String, colour: String, seats: Int) {
            self.seats = seats
            super.init(plate: plate, colour: colour)
        }
    }

    @Model
    final class Truck: Vehicle {
        var load: Double

        init(plate: String, colour: String, load: Double) {
            self.load = load
            super.init(plate: plate, colour: colour)
        }
    }
}

enum GarageV2: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Vehicle.self, Car.self, Truck.self] }

    @Model
    class Vehicle {
        @Attribute(.unique) var plate: String
        var colour: String

        init(plate: String, colour: String) {
            self.plate = plate
            self.colour = colour
        }
    }

    @Model
    final class Car: Vehicle {
        var seats: Int

        init(plate: String, colour: String, seats: Int) {
            self.seats = seats
            super.init(plate: plate, colour: colour)
        }
    }

    @Model
    final class Truck: Vehicle {
        var load: Double

        init(plate: String, colour: String, load: Double) {
            self.load = load
            super.init(plate: plate, colour: colour)
        }
    }
}

enum GaragePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [GarageV1.self, GarageV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: GarageV1.self, toVersion: GarageV2.self)] }
}

/// A migration that makes the base class's attribute unique folds duplicates across classes.
struct HierarchyUniqueMigrationTests {
    @Test func duplicatesAcrossSubclassesFoldIntoTheOldestObject() throws {
        let directory = TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.child("garage.store"))
        do {
            let context = ModelContext(
                try ModelContainer(
                    for: Schema(versionedSchema: GarageV1.self),
                    configurations: [ModelConfiguration(url: url)]
                )
            )
            context.insert(GarageV1.Car(plate: "A1", colour: "red", seats: 4))
            context.insert(GarageV1.Truck(plate: "A1", colour: "blue", load: 7))
            context.insert(GarageV1.Vehicle(plate: "A1", colour: "green"))
            context.insert(GarageV1.Truck(plate: "B2", colour: "white", load: 1))
            context.insert(GarageV1.Vehicle(plate: "B2", colour: "black"))
            context.insert(GarageV1.Car(plate: "C3", colour: "pink", seats: 2))
            try context.save()
        }
        func open() throws -> ModelContainer {
            try ModelContainer(
                for: Schema(versionedSchema: GarageV2.self),
                migrationPlan: GaragePlan.self,
                configurations: [ModelConfiguration(url: url)]
            )
        }
        func check(_ container: ModelContainer) throws {
            let vehicles = try ModelContext(container).fetch(
                FetchDescriptor<GarageV2.Vehicle>(sortBy: [SortDescriptor(\.plate)])
            )
            #expect(vehicles.map(\.plate) == ["A1", "B2", "C3"])
            #expect(vehicles.map { String(describing: type(of: $0)) } == ["Car", "Truck", "Car"])
            #expect(vehicles.map(\.colour) == ["green", "black", "pink"])
            #expect((vehicles.first as? GarageV2.Car)?.seats == 4)
            #expect((vehicles.dropFirst().first as? GarageV2.Truck)?.load == 1)
        }
        let migrated = try open()
        try check(migrated)
        try migrated.checkpoint()
        try check(try open())
    }
}
