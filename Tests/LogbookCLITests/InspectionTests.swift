import Foundation
import Logbook
import SampleTrips
import Testing

/// `dump`, `replay` and `tail` run on stores made here, the way a user runs them.
struct InspectionTests {
    /// A store migrated from version 1 by the demo, plus a later delete.
    private func migratedStore(_ directory: TemporaryDirectory) throws -> String {
        let store = directory.child("trips.store")
        let demo = try ToolProcess.run(["demo", store])
        #expect(demo.status == 0)
        return store
    }

    @Test func dumpAsJSONIsOneParseableObjectPerEventUpcastUnlessRaw() throws {
        let directory = TemporaryDirectory()
        let store = try migratedStore(directory)
        let outcome = try ToolProcess.run(["dump", store, "--format", "json"])
        #expect(outcome.status == 0)
        let lines = outcome.stdout.split(separator: "\n")
        #expect(lines.count == 38)
        var kinds: [String: Int] = [:]
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["seq"] is Int)
            #expect(object["schemaVersion"] is String)
            kinds[object["kind"] as? String ?? "?", default: 0] += 1
        }
        // The plan's willMigrate trims one name, moves the duplicates' items and an accommodation
        // to the trips it keeps (one more accommodation lets go of its deleted trip), and deletes
        // three trips.
        #expect(kinds == ["schema": 3, "insert": 19, "update": 11, "delete": 3, "migration": 2])
        let first = try #require(
            try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any]
        )
        #expect(first["entity"] as? String == "Trip")
        let attributes = try #require(first["attributes"] as? [String: Any])
        #expect(
            attributes["startDate"] as? String == "2026-06-01T00:00:00.000Z",
            "upcast to the newest schema, ISO 8601"
        )
        #expect(first["schemaVersion"] as? String == "3.0.0")
        let raw = try ToolProcess.run(["dump", store, "--format", "json", "--raw", "--from", "2", "--to", "2"])
        #expect(
            raw.stdout
                == #"{"seq":2,"schemaVersion":"1.0.0","kind":"insert","entity":"Trip","id":1,"attributes":{"name":"Summer in Lisbon","destination":"Lisbon","start_date":"2026-06-01T00:00:00.000Z","end_date":"2026-06-08T00:00:00.000Z"},"relationships":{}}"#
                + "\n"
        )
    }

    @Test func dumpFiltersByEntityAndRange() throws {
        let directory = TemporaryDirectory()
        let store = try migratedStore(directory)
        let trips = try ToolProcess.run(["dump", store, "--entity", "Trip"])
        #expect(
            trips.stdout.split(separator: "\n").count == 10,
            "six inserts, the trimming update and the deletes of three duplicates"
        )
        let range = try ToolProcess.run(["dump", store, "--from", "3", "--to", "4"])
        #expect(
            range.stdout.split(separator: "\n").map { $0.split(separator: "\t").first.map(String.init) } == ["3", "4"]
        )
        let bad = try ToolProcess.run(["dump", store, "--from", "9", "--to", "4"])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("--from 9 is after --to 4"))
    }

    @Test func replayShowsTheObjectsWithRelationshipsNowAndAsOfASequence() throws {
        let directory = TemporaryDirectory()
        let store = try migratedStore(directory)
        let now = try ToolProcess.run(["replay", store, "--entity", "Trip"])
        #expect(now.status == 0)
        #expect(
            now.stdout.hasPrefix("as of sequence 38, schema 3.0.0: 9 BucketListItem, 4 LivingAccommodation, 3 Trip\n")
        )
        // The trip that ends later is the one kept, with the other's items and accommodation.
        #expect(now.stdout.contains("Trip#9\tdestination=\"Lisbon and Sintra\""))
        let lisbon = now.stdout.split(separator: "\n").first { $0.hasPrefix("Trip#9\t") } ?? ""
        #expect(lisbon.hasSuffix("livingAccommodation → #4"), "\(lisbon)")
        // The order of the moved items follows the order the save wrote them in.
        for item in ["#2", "#3", "#10"] { #expect(lisbon.contains(item), "\(lisbon)") }
        let early = try ToolProcess.run(["replay", store, "--as-of", "5", "--format", "json"])
        let objects = try early.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(
            objects.map { $0["entity"] as? String } == [
                "BucketListItem", "BucketListItem", "LivingAccommodation", "Trip",
            ]
        )
        let unknown = try ToolProcess.run(["replay", store, "--entity", "Hotel"])
        #expect(unknown.status == 2)
        #expect(
            unknown.stderr
                == "Error: the store has no entity named Hotel (it has BucketListItem, LivingAccommodation, Trip)\n"
        )
    }

    @Test func tailPrintsTheLastEventsAndFollowsAWriter() throws {
        let directory = TemporaryDirectory()
        let store = directory.child("trips.store")
        let container = try ModelContainer(
            for: Trip.self,
            configurations: ModelConfiguration(url: URL(fileURLWithPath: store))
        )
        let context = ModelContext(container)
        context.insert(makeTrip("First"))
        try context.save()
        let last = try ToolProcess.run(["tail", store, "-n", "1"])
        #expect(last.stdout.hasPrefix("2\t1.0.0\tinsert\tTrip#1\t"))
        // `-n 1` makes the tool print the last event once it has read to the end of the log, so
        // the test knows it is following before it saves again.
        let (process, out) = try ToolProcess.start(["tail", store, "--follow", "-n", "1"])
        defer {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let started = readOutput(of: out, until: "First", timeout: 60)
        #expect(started.hasPrefix("2\t1.0.0\tinsert\tTrip#1\t"), "\(started)")
        context.insert(makeTrip("Second"))
        try context.save()
        let seen = readOutput(of: out, until: "Second", timeout: 60)
        #expect(seen.contains("3\t1.0.0\tinsert\tTrip#2\tname=\"Second\""))
    }

    @Test func dumpAsJSONEscapesWhatJSONEscapesAtEveryPositionAndNothingElse() throws {
        let directory = TemporaryDirectory()
        let store = directory.child("trips.store")
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        // Every length up to 19 (two words and a tail), with a character JSON escapes, or one it
        // leaves alone, at every position.
        var escaped: [String] = []
        var clean: [String] = []
        for length in 1...19 {
            for position in 0..<length {
                for special in ["\"", "\\", "\n", "\t", "\u{01}", "\u{1F}"] {
                    var characters = letters[0..<length].map(String.init)
                    characters[position] = special
                    escaped.append(characters.joined())
                }
                for special in [" ", "\u{7F}", "é", "!", "~"] {
                    var characters = letters[0..<length].map(String.init)
                    characters[position] = special
                    clean.append(characters.joined())
                }
            }
        }
        do {
            let container = try ModelContainer(
                for: Trip.self,
                configurations: ModelConfiguration(url: URL(fileURLWithPath: store))
            )
            let context = ModelContext(container)
            for name in escaped + clean { context.insert(makeTrip(name)) }
            try context.save()
        }
        let outcome = try ToolProcess.run(["dump", store, "--format", "json", "--entity", "Trip"])
        #expect(outcome.status == 0)
        var names: [String] = []
        for line in outcome.stdout.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let attributes = try #require(object["attributes"] as? [String: Any])
            names.append(try #require(attributes["name"] as? String))
        }
        #expect(names == escaped + clean)
        for name in clean {
            #expect(outcome.stdout.contains("\"name\":\"\(name)\""), "written as is: \(name.debugDescription)")
        }
        #expect(outcome.stdout.contains(#""name":"ab\"de""#))
        #expect(outcome.stdout.contains(#""name":"a\u0001c""#))
    }

    @Test(arguments: [[2, 1], [2, 1, 4, 84, 114, 105, 112, 7, 1, 4, 110, 97, 109, 101, 99], [3, 1, 0, 0, 0, 0, 9]])
    func aMalformedInsertOrUpdateInAJSONDumpIsReportedWithItsSequenceNumber(event: [UInt8]) throws {
        let directory = TemporaryDirectory()
        let store = directory.child("trips.store")
        #expect(try ToolProcess.run(["_sample-store", "--version", "2", store]).status == 0)
        do {
            let log = try EventLog(directory: store)
            #expect(try log.append([event]) == 21...21)
        }
        let outcome = try ToolProcess.run(["dump", store, "--format", "json"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.hasPrefix("Error: undecodable event: "), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("[sequence 21]"))
        #expect(outcome.stdout.split(separator: "\n").count == 20, "the sound events before it are printed")
    }

    @Test(arguments: ["dump", "replay", "tail", "info"])
    func aDamagedStoreGetsAOneLineErrorNamingSegmentAndOffset(command: String) throws {
        let directory = TemporaryDirectory()
        let store = try migratedStore(directory)
        let segment = store + "/00000000000000000001.log"
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: segment)))
        bytes[40] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: segment))
        let outcome = try ToolProcess.run([command, store])
        if command == "info" {
            #expect(outcome.stdout.contains("damage:"))
            return
        }
        #expect(outcome.status == 1)
        #expect(outcome.stderr.hasPrefix("Error: damaged log: checksum mismatch"))
        #expect(outcome.stderr.contains("\(segment) at byte offset 0"))
        #expect(outcome.stderr.split(separator: "\n").count == 1)
    }
}

/// A trip with a name and nothing else to tell it apart, for the tool's tests.
func makeTrip(_ name: String) -> Trip {
    Trip(
        name: name,
        destination: "x",
        startDate: Date(timeIntervalSince1970: 0),
        endDate: Date(timeIntervalSince1970: 0)
    )
}
