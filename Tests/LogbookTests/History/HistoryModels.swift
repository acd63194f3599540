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

/// A to-many relationship without an inverse, whose changes the log records as links and
/// unlinks of the playlist, and a to-one one, for history's tests.
@Model
final class HistoryPlaylist {
    var name: String
    @Relationship(deleteRule: .nullify) var songs: [HistorySong] = []
    @Relationship(deleteRule: .nullify) var opener: HistorySong?

    init(name: String) {
        self.name = name
    }
}

@Model
final class HistorySong {
    var title: String

    init(title: String) {
        self.title = title
    }
}
