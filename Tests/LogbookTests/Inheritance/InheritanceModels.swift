import Foundation
import Logbook

/// A model hierarchy as SwiftData's model inheritance writes it: a non-final model class, a
/// non-final subclass with a final subclass of its own, and a final subclass.
enum Travel {
    @Model
    class Trip {
        var name: String
        var startDate: Date

        init(name: String, startDate: Date) {
            self.name = name
            self.startDate = startDate
        }
    }

    @Model
    class BusinessTrip: Trip {
        var perdiem: Double

        init(name: String, startDate: Date, perdiem: Double) {
            self.perdiem = perdiem
            super.init(name: name, startDate: startDate)
        }
    }

    @Model
    final class ConferenceTrip: BusinessTrip {
        var conference: String
        var talks: [String] = []

        init(name: String, startDate: Date, perdiem: Double, conference: String) {
            self.conference = conference
            super.init(name: name, startDate: startDate, perdiem: perdiem)
        }
    }

    @Model
    final class PersonalTrip: Trip {
        var reason: String
        var companions: Int?

        init(name: String, startDate: Date, reason: String, companions: Int? = nil) {
            self.reason = reason
            self.companions = companions
            super.init(name: name, startDate: startDate)
        }
    }

    static let models: [any PersistentModel.Type] = [
        Trip.self, BusinessTrip.self, ConferenceTrip.self, PersonalTrip.self,
    ]

    static let start = Date(timeIntervalSince1970: 1_780_000_000)

    /// Two of each kind, with distinct names and dates: `t0`, `b1`, `c2`, `p3`, `t4`, `b5`,
    /// `c6`, `p7`, a day apart.
    static func insertSample(into context: ModelContext) {
        for index in 0..<8 {
            let name = ["t", "b", "c", "p"][index % 4] + "\(index)"
            let date = start + Double(index) * 86_400
            let trip: Trip =
                switch index % 4 {
                case 0: Trip(name: name, startDate: date)
                case 1: BusinessTrip(name: name, startDate: date, perdiem: Double(index) * 50)
                case 2:
                    ConferenceTrip(name: name, startDate: date, perdiem: Double(index) * 50, conference: "conf\(index)")
                default: PersonalTrip(name: name, startDate: date, reason: "reason\(index)")
                }
            context.insert(trip)
        }
    }
}
