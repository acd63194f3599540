import Foundation
import Logbook
import Testing

/// Unique constraints in a model hierarchy: one declared on the base class holds across all
/// its subclasses, and an insert that collides with an object of another class upserts into
/// that object, which keeps its class; one a subclass declares holds within that subclass.
struct HierarchyUniqueTests {
    private func vehicles(_ context: ModelContext) throws -> [Fleet.Vehicle] {
        try context.fetch(FetchDescriptor<Fleet.Vehicle>(sortBy: [SortDescriptor(\.plate)]))
    }

    @Test(arguments: StoreKind.allCases)
    func anInsertOfAnotherSubclassUpsertsIntoTheObjectThatHoldsTheValue(_ kind: StoreKind) throws {
        let store = TestStore(kind, models: Fleet.models)
        let context = ModelContext(try store.container())
        let car = Fleet.Car(plate: "A1", colour: "red", seats: 4)
        context.insert(car)
        try context.save()
        let carID = car.persistentModelID

        let truck = Fleet.Truck(plate: "A1", colour: "blue", load: 12)
        context.insert(truck)
        try context.save()
        // The car keeps its class and identifier, and takes the values the classes share.
        #expect(car.colour == "blue")
        #expect(car.seats == 4)
        #expect(truck.modelContext == nil)
        #expect(try vehicles(context).map(\.persistentModelID) == [carID])

        let reopened = try store.reopenedContext()
        let all = try vehicles(reopened)
        #expect(all.count == 1)
        let stored = try #require(all.first as? Fleet.Car)
        #expect(stored.persistentModelID == carID)
        #expect((stored.plate, stored.colour, stored.seats) == ("A1", "blue", 4))
        #expect(try reopened.fetchCount(FetchDescriptor<Fleet.Truck>()) == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func withinOneSaveTheFirstInsertedObjectSurvives(_ kind: StoreKind) throws {
        let store = TestStore(kind, models: Fleet.models)
        let context = ModelContext(try store.container())
        context.insert(Fleet.Truck(plate: "B2", colour: "green", load: 3))
        context.insert(Fleet.Car(plate: "B2", colour: "white", seats: 2))
        context.insert(Fleet.Vehicle(plate: "B2", colour: "black"))
        try context.save()

        let all = try vehicles(try store.reopenedContext())
        #expect(all.count == 1)
        let truck = try #require(all.first as? Fleet.Truck)
        #expect((truck.colour, truck.load) == ("black", 3))
    }

    @Test(arguments: StoreKind.allCases)
    func anObjectOfTheBaseClassSurvivesASubclassInsert(_ kind: StoreKind) throws {
        let store = TestStore(kind, models: Fleet.models)
        let context = ModelContext(try store.container())
        context.insert(Fleet.Vehicle(plate: "C3", colour: "grey"))
        try context.save()
        context.insert(Fleet.Car(plate: "C3", colour: "yellow", seats: 5))
        try context.save()

        let all = try vehicles(try store.reopenedContext())
        #expect(all.map { String(describing: type(of: $0)) } == ["Vehicle"])
        #expect(all.map(\.colour) == ["yellow"])
    }

    @Test(arguments: StoreKind.allCases)
    func relationshipsOfTheMergedObjectMoveToTheSurvivor(_ kind: StoreKind) throws {
        let store = TestStore(kind, models: Fleet.models)
        let context = ModelContext(try store.container())
        let car = Fleet.Car(plate: "D4", colour: "red", seats: 4)
        context.insert(car)
        car.drivers.append(Fleet.Driver(name: "Ann"))
        try context.save()
        let truck = Fleet.Truck(plate: "D4", colour: "red", load: 1)
        context.insert(truck)
        let bo = Fleet.Driver(name: "Bo")
        truck.drivers.append(bo)
        try context.save()
        #expect(bo.vehicle === car)
        #expect(car.drivers.map(\.name).sorted() == ["Ann", "Bo"])

        let reopened = try store.reopenedContext()
        let stored = try #require(try vehicles(reopened).first)
        #expect(stored.drivers.map(\.name).sorted() == ["Ann", "Bo"])
        let drivers = try reopened.fetch(FetchDescriptor<Fleet.Driver>())
        #expect(drivers.allSatisfy { $0.vehicle === stored })
    }

    @Test(arguments: StoreKind.allCases)
    func anUpdateToAValueAnotherClassHoldsFoldsIntoThatObject(_ kind: StoreKind) throws {
        let store = TestStore(kind, models: Fleet.models)
        let context = ModelContext(try store.container())
        context.insert(Fleet.Car(plate: "E5", colour: "red", seats: 4))
        let truck = Fleet.Truck(plate: "F6", colour: "blue", load: 9)
        context.insert(truck)
        try context.save()
        truck.plate = "E5"
        try context.save()

        let all = try vehicles(try store.reopenedContext())
        #expect(all.count == 1)
        let car = try #require(all.first as? Fleet.Car)
        #expect((car.plate, car.colour, car.seats) == ("E5", "blue", 4))
    }

    @Test(arguments: StoreKind.allCases)
    func aSubclassOwnConstraintHoldsWithinTheSubclassOnly(_ kind: StoreKind) throws {
        let store = TestStore(kind, models: Fleet.models)
        let context = ModelContext(try store.container())
        context.insert(Fleet.Car(plate: "G7", colour: "red", seats: 4, registration: "R-1"))
        context.insert(Fleet.Truck(plate: "H8", colour: "red", load: 2, registration: "R-1"))
        try context.save()
        context.insert(Fleet.Car(plate: "I9", colour: "pink", seats: 2, registration: "R-1"))
        try context.save()

        let all = try vehicles(try store.reopenedContext())
        // The two cars fold (the newer plate wins); the truck's registration is another class's.
        #expect(all.map(\.plate) == ["H8", "I9"])
        #expect(all.map { String(describing: type(of: $0)) } == ["Truck", "Car"])
    }

    @Test func theFoldAcrossClassesReadsBackFromACheckpoint() throws {
        let store = TestStore(.disk, models: Fleet.models)
        let context = ModelContext(try store.container())
        context.insert(Fleet.Car(plate: "J1", colour: "red", seats: 4))
        try context.save()
        let truck = Fleet.Truck(plate: "J1", colour: "teal", load: 1)
        context.insert(truck)
        try context.save()
        try store.container().checkpoint()

        // A save after the checkpoint that names the merged-away identifier reaches the car.
        let again = try store.reopenedContext()
        let car = try #require(try vehicles(again).first as? Fleet.Car)
        car.drivers.append(Fleet.Driver(name: "Cy"))
        try again.save()

        let reopened = try store.reopenedContext()
        let stored = try #require(try vehicles(reopened).first as? Fleet.Car)
        #expect(try vehicles(reopened).count == 1)
        #expect(stored.colour == "teal")
        #expect(stored.drivers.map(\.name) == ["Cy"])
    }
}
