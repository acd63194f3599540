import Foundation
import Logbook
import Testing

/// Hierarchies this version does not store: rather than give wrong results (a unique
/// constraint checked in one subclass's objects only, a relationship that cannot reach a
/// subclass's objects), making a container throws an error naming the entity and property.
enum Fleet {
    @Model
    class Vehicle {
        @Attribute(.unique) var plate: String

        init(plate: String) {
            self.plate = plate
        }
    }

    @Model
    final class Car: Vehicle {
        var seats: Int

        init(plate: String, seats: Int) {
            self.seats = seats
            super.init(plate: plate)
        }
    }

    @Model
    class Garage {
        var name: String
        var vehicles: [Parked] = []

        init(name: String) {
            self.name = name
        }
    }

    @Model
    final class Workshop: Garage {
        var benches: Int

        init(name: String, benches: Int) {
            self.benches = benches
            super.init(name: name)
        }
    }

    @Model
    final class Parked {
        var slot: Int
        var garage: Garage?

        init(slot: Int) {
            self.slot = slot
        }
    }
}

struct UnsupportedHierarchyTests {
    @Test(arguments: StoreKind.allCases)
    func aUniqueConstraintInAHierarchyIsRefusedWithItsEntityAndAttribute(_ kind: StoreKind) throws {
        let store = TestStore(kind, models: [Fleet.Vehicle.self, Fleet.Car.self])
        #expect {
            _ = try store.container()
        } throws: { error in
            let error = try #require(error as? SchemaError)
            return error.code == .invalidInheritance && error.entity == "Car" && error.property == "plate"
                && error.message == "Unique constraints in a model hierarchy are not supported yet"
        }
    }

    @Test(arguments: StoreKind.allCases)
    func relationshipsInAHierarchyAreRefusedWithTheirEntityAndName(_ kind: StoreKind) throws {
        let store = TestStore(kind, models: [Fleet.Garage.self, Fleet.Workshop.self, Fleet.Parked.self])
        #expect {
            _ = try store.container()
        } throws: { error in
            let error = try #require(error as? SchemaError)
            return error.code == .invalidInheritance && error.entity == "Garage" && error.property == "vehicles"
                && error.message == "Relationships of an entity in a model hierarchy are not supported yet"
        }
    }
}
