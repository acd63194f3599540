import Foundation
import Logbook

/// A model with a preserved attribute, an optional one and a plain one, for history's tests.
@Model
final class HistoryTicket {
    @Attribute(.preserveValueOnDeletion) var code: String
    var seat: String
    var price: Double?

    init(code: String, seat: String, price: Double?) {
        self.code = code
        self.seat = seat
        self.price = price
    }
}
