import Foundation
import Logbook
import Testing

/// A model with a constraint over two attributes and an index, for the tool's output.
@Model
final class Booking {
    #Unique<Booking>([\.room, \.night])
    #Index<Booking>([\.night])

    var room: String
    var night: Int

    init(room: String, night: Int) {
        self.room = room
        self.night = night
    }
}

/// The tool prints the constraints over several attributes and the indexes a schema record holds.
struct ConstraintLinesTests {
    private func store(_ directory: TemporaryDirectory) throws -> String {
        let path = directory.child("bookings.store")
        let context = ModelContext(
            try ModelContainer(for: Schema([Booking.self]), configurations: [.init(url: URL(fileURLWithPath: path))])
        )
        context.insert(Booking(room: "12", night: 1))
        context.insert(Booking(room: "12", night: 1))
        try context.save()
        return path
    }

    @Test func infoListsTheConstraintsAndIndexesOfEachSchema() throws {
        let directory = TemporaryDirectory()
        let path = try store(directory)
        let outcome = try ToolProcess.run(["info", path])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("      Booking #Unique(night, room)\n      Booking #Index(night)\n"))
    }

    @Test func dumpShowsThemInTheSchemaEventAndReplayFoldsTheTuple() throws {
        let directory = TemporaryDirectory()
        let path = try store(directory)
        let json = try ToolProcess.run(["dump", path, "--format", "json", "--from", "1", "--to", "1"])
        #expect(json.status == 0)
        #expect(json.stdout.contains(#""constraints":["Booking #Unique(night, room)","Booking #Index(night)"]"#))
        let text = try ToolProcess.run(["dump", path, "--from", "1", "--to", "1"])
        #expect(text.stdout.contains("entities Booking, Booking #Unique(night, room), Booking #Index(night)"))
        let replay = try ToolProcess.run(["replay", path, "--format", "json"])
        #expect(replay.status == 0)
        #expect(replay.stdout.split(separator: "\n").count == 1, "the second booking of room 12 folded into the first")
    }
}
