import Foundation
import Logbook
import SampleTrips
import Testing

/// `logbook demo --dry-run` and the schema history `logbook info` shows: what a migration would
/// do, found without writing a byte.
struct MigrationPreviewToolTests {
    /// Every file of a store, with its bytes.
    /// Every file of the store, checkpoints included, by path within it.
    private func files(_ store: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: store) {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: store + "/" + path, isDirectory: &isDirectory)
            if !exists || isDirectory.boolValue { continue }
            files[path] = try Data(contentsOf: URL(fileURLWithPath: store + "/" + path))
        }
        return files
    }

    private func fixtureCopy(_ name: String, into directory: TemporaryDirectory) throws -> String {
        let target = directory.child(name)
        try FileManager.default.copyItem(
            at: GoldenStoreTests.fixtures.appendingPathComponent(name),
            to: URL(fileURLWithPath: target)
        )
        return target
    }

    @Test func theDryRunOfAVersion1StoreShowsBothStagesAndChangesNoByte() throws {
        let directory = TemporaryDirectory()
        let store = directory.child("trips.store")
        #expect(try ToolProcess.run(["_sample-store", "--version", "1", store]).status == 0)
        let before = try files(store)
        let outcome = try ToolProcess.run(["demo", store, "--dry-run"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stdout == """
                What opening \(store) with the current models through SampleTripsMigrationPlan would do:
                   store at 1.0.0, models at 3.0.0
                   stage 1.0.0 → 2.0.0 (custom): Trip.name becomes unique, folds 2 Trip
                   stage 2.0.0 → 3.0.0 (lightweight): Trip.end_date → endDate, Trip.start_date → startDate
                Nothing was written: this was a dry run.

                """
        )
        #expect(try files(store) == before, "the store's files and bytes are unchanged")
    }

    @Test(arguments: [
        ("sampletrips-v1", "store at 1.0.0, models at 3.0.0"),
        // Written without a plan, so its schema record carries 1.0.0; the fingerprint is 2.0.0's.
        ("sampletrips-v2", "store at 2.0.0 (recorded as 1.0.0), models at 3.0.0"),
    ])
    func theDryRunOfAGoldenStoreChangesNoByte(name: String, firstLine: String) throws {
        let directory = TemporaryDirectory()
        let store = try fixtureCopy(name, into: directory)
        let before = try files(store)
        let outcome = try ToolProcess.run(["demo", store, "--dry-run"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("   \(firstLine)\n"))
        #expect(outcome.stdout.contains("stage 2.0.0 → 3.0.0 (lightweight)"))
        #expect(try files(store) == before)
    }

    @Test func theDryRunOfAMigratedStoreSaysNothingIsNeeded() throws {
        let directory = TemporaryDirectory()
        let store = directory.child("trips.store")
        #expect(try ToolProcess.run(["demo", store]).status == 0)
        let before = try files(store)
        let outcome = try ToolProcess.run(["demo", store, "--dry-run"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("   store at 3.0.0, models at 3.0.0\n   no migration needed\n"))
        #expect(try files(store) == before)
    }

    @Test func theDryRunNeedsAnExistingStoreAndTheDemoANewPath() throws {
        let directory = TemporaryDirectory()
        let missing = try ToolProcess.run(["demo", directory.child("missing"), "--dry-run"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "Error: no store at \(directory.child("missing")): the directory does not exist\n")
        #expect(!FileManager.default.fileExists(atPath: directory.child("missing")))
        let existing = try ToolProcess.run(["demo", directory.path])
        #expect(existing.status != 0)
        #expect(existing.stderr.contains("add --dry-run to preview it"))
    }

    @Test func infoListsTheRecordedSchemasWithFingerprintsAndTheStagesThatRan() throws {
        let directory = TemporaryDirectory()
        let store = directory.child("trips.store")
        #expect(try ToolProcess.run(["demo", store]).status == 0)
        let outcome = try ToolProcess.run(["info", store])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let v1 = Schema(versionedSchema: SampleTripsSchemaV1.self).fingerprint.hexString
        let v2 = Schema(versionedSchema: SampleTripsSchemaV2.self).fingerprint.hexString
        let v3 = Schema(versionedSchema: SampleTripsSchemaV3.self).fingerprint.hexString
        #expect(
            outcome.stdout.contains(
                """
                schemas:   3 recorded
                  #1  version 1.0.0  fingerprint \(v1)
                  #2  version 2.0.0  fingerprint \(v2)
                  #3  version 3.0.0  fingerprint \(v3)
                migrations: 2 stage(s) run
                  1.0.0 → 2.0.0 (custom)
                  2.0.0 → 3.0.0 (lightweight)

                """
            ),
            "\(outcome.stdout)"
        )
    }

    @Test func infoOfABareLogSaysItsEventsAreOpaque() throws {
        let directory = TemporaryDirectory()
        let store = directory.child("log")
        #expect(try ToolProcess.run(["_append-loop", store, "--batches", "2", "--relaxed"]).status == 0)
        let outcome = try ToolProcess.run(["info", store])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("schemas:   none recorded (the events are opaque bytes)\n"))
    }
}
