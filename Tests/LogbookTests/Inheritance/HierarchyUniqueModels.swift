import Foundation
import Logbook

/// A model hierarchy with a unique attribute on its base class, which holds across every class
/// of the hierarchy, and a unique attribute that two sibling subclasses each declare, which
/// holds within each of them.
enum Fleet {
    @Model
    class Vehicle {
        @Attribute(.unique) var plate: String
        var colour: String
        var drivers: [Driver] = []

        init(plate: String, colour: String) {
            self.plate = plate
            self.colour = colour
        }
    }

    @Model
    final class Car: Vehicle {
        var seats: Int
        @Attribute(.unique) var registration: String

        init(plate: String, colour: String, seats: Int, registration: String = UUID().uuidString) {
            self.seats = seats
            self.registration = registration
            super.init(plate: plate, colour: colour)
        }
    }

    @Model
    final class Truck: Vehicle {
        var load: Double
        @Attribute(.unique) var registration: String

        init(plate: String, colour: String, load: Double, registration: String = UUID().uuidString) {
            self.load = load
            self.registration = registration
            super.init(plate: plate, colour: colour)
        }
    }

    @Model
    final class Driver {
        var name: String
        var vehicle: Vehicle?

        init(name: String) {
            self.name = name
        }
    }

    static let models: [any PersistentModel.Type] = [Vehicle.self, Car.self, Truck.self, Driver.self]
}
