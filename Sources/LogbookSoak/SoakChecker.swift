import Foundation
import Logbook
import SampleTrips

/// Checks a store after its writer was killed: it opens, it verifies, and it holds exactly the
/// values of some number of whole saves, no fewer than were acknowledged.
struct SoakChecker {
    let script: SoakScript
    let logbook: String

    /// Returns the number of saves the store holds, or throws ``SoakFailure`` naming the broken
    /// promise.
    func check(_ store: URL, acknowledged: Int) throws -> Int {
        // A writer killed before it made the directory leaves nothing, which is right when it
        // had acknowledged nothing.
        if acknowledged == 0 && !FileManager.default.fileExists(atPath: store.path) { return 0 }
        // One killed between making the directory and its first file leaves an empty directory,
        // which `logbook verify` rightly calls no store, and which the library opens as empty.
        let files = (try? FileManager.default.contentsOfDirectory(atPath: store.path)) ?? []
        let empty = files.allSatisfy { $0 == "LOCK" }
        let verify =
            acknowledged == 0 && empty ? (status: Int32(0), output: "") : try run(logbook, ["verify", store.path])
        guard verify.status == 0 else {
            throw SoakFailure("logbook verify exited \(verify.status): \(verify.output)")
        }
        let (version, found) = try snapshot(store)
        // A store without events has no version yet: nothing was saved, or every save so far
        // changed nothing (a script's edit may insert, update and delete nothing), and a save
        // without changes writes no batch.
        let holdsNoEvents = try holdsNoEvents(store)
        let candidates = [acknowledged + 1, acknowledged].filter { $0 <= script.length }
        for saves in candidates {
            let versionMatches =
                version == script.version(after: saves)
                // A migration killed between its two stages leaves the store at version 2.
                || (version == 2 && saves == script.migrationStep - 1)
                || holdsNoEvents
            if versionMatches && script.state(after: saves) == found { return saves }
        }
        let differences = candidates.map { saves in
            let expected = script.state(after: saves)
            return
                "after \(saves) saves, \(expected) at version \(script.version(after: saves)): \(expected.firstDifference(from: found) ?? "the versions differ")"
        }
        throw SoakFailure(
            "\(acknowledged) saves acknowledged; the store is at version \(version) with \(found); expected "
                + differences.joined(separator: "; or ")
        )
    }

    /// Whether the log holds no batch, once the snapshot's open has cut off any torn tail.
    private func holdsNoEvents(_ store: URL) throws -> Bool {
        var batches = LogReader(directory: store.path).batches()
        return try batches.next() == nil
    }

    /// The store's values, read through the models of whichever version it is at.
    ///
    /// The version is the one whose fingerprint the log recorded last (version 3 for a store
    /// with none yet): opening the store with another version's models, without a plan, would
    /// migrate it automatically when the changes between them are lightweight.
    func snapshot(_ store: URL) throws -> (version: Int, state: SoakState) {
        let latest = try RecordedSchemas.scan(LogReader(directory: store.path)).last?.fingerprint
        func isAt(_ version: any VersionedSchema.Type) -> Bool {
            latest == nil || latest == Schema(versionedSchema: version).fingerprint.hexString
        }
        if isAt(SampleTripsSchemaV3.self), let state = try read(store, as: SampleTripsSchemaV3.Trip.self) {
            return (3, state)
        }
        if isAt(SampleTripsSchemaV1.self), let state = try read(store, as: SampleTripsSchemaV1.Trip.self) {
            return (1, state)
        }
        if isAt(SampleTripsSchemaV2.self), let state = try read(store, as: SampleTripsSchemaV2.Trip.self) {
            return (2, state)
        }
        throw SoakFailure("the store matches none of the SampleTrips schema versions")
    }

    private func read<T: SoakTrip>(_ store: URL, as type: T.Type) throws -> SoakState? {
        do {
            let container = try ModelContainer(for: type, configurations: ModelConfiguration(url: store))
            return try SoakState(reading: ModelContext(container), as: type)
        } catch let error as LogbookError where error.code == .schemaMismatch {
            return nil
        }
    }
}

/// Runs a program to completion and returns its exit status and its output, both streams.
func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    try? pipe.fileHandleForReading.close()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}
