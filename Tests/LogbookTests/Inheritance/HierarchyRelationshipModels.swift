import Foundation
import Logbook

/// A model hierarchy with relationships: the base class's relationships (to-many with
/// `.cascade`, to-one with `.nullify`), inherited by its subclasses; a subclass's own
/// relationship with `.deny`; a relationship whose destination is the base class, which holds
/// subclass objects; and one whose destination is a subclass.
enum Agency {
    @Model
    class Trip {
        var name: String
        @Relationship(deleteRule: .cascade, inverse: \Stop.trip) var stops: [Stop] = []
        var traveller: Traveller?

        init(name: String) {
            self.name = name
        }
    }

    @Model
    class BusinessTrip: Trip {
        var perdiem: Double
        @Relationship(deleteRule: .deny) var expenses: [Expense] = []

        init(name: String, perdiem: Double) {
            self.perdiem = perdiem
            super.init(name: name)
        }
    }

    @Model
    final class ConferenceTrip: BusinessTrip {
        var conference: String

        init(name: String, perdiem: Double, conference: String) {
            self.conference = conference
            super.init(name: name, perdiem: perdiem)
        }
    }

    @Model
    final class PersonalTrip: Trip {
        var reason: String

        init(name: String, reason: String) {
            self.reason = reason
            super.init(name: name)
        }
    }

    @Model
    final class Stop {
        var place: String
        var trip: Trip?

        init(place: String) {
            self.place = place
        }
    }

    @Model
    final class Traveller {
        var name: String
        var trips: [Trip] = []

        init(name: String) {
            self.name = name
        }
    }

    @Model
    final class Expense {
        var amount: Double
        var trip: BusinessTrip?

        init(amount: Double) {
            self.amount = amount
        }
    }

    static let models: [any PersistentModel.Type] = [
        Trip.self, BusinessTrip.self, ConferenceTrip.self, PersonalTrip.self, Stop.self, Traveller.self,
        Expense.self,
    ]

    /// Ada with a plain trip "t", a business trip "b" (one stop, one expense), a conference
    /// trip "c" (two stops, one expense) and a personal trip "p" (one stop); Bob with none.
    static func insertSample(into context: ModelContext) {
        let ada = Traveller(name: "Ada")
        let bob = Traveller(name: "Bob")
        context.insert(ada)
        context.insert(bob)
        let trip = Trip(name: "t")
        let business = BusinessTrip(name: "b", perdiem: 90)
        let conference = ConferenceTrip(name: "c", perdiem: 120, conference: "WWDC")
        let personal = PersonalTrip(name: "p", reason: "rest")
        for (model, stops) in [
            (trip, [String]()), (business, ["Berlin"]), (conference, ["Cupertino", "Denver"]),
            (personal, ["Evora"]),
        ] as [(Trip, [String])] {
            context.insert(model)
            model.traveller = ada
            for place in stops { model.stops.append(Stop(place: place)) }
        }
        let hotel = Expense(amount: 300)
        let ticket = Expense(amount: 800)
        context.insert(hotel)
        context.insert(ticket)
        hotel.trip = business
        conference.expenses.append(ticket)
    }
}
