import Dispatch
import Foundation
import Logbook
import LogbookPostgres
import PostgresNIO
import SampleTrips
import Testing

/// Migrations of a store that several hosts share: one host migrates under the store's
/// migration lock while the others wait for it and then find the store migrated.
struct MigrationLockTests {
    /// The first key of a store's migration lock, as the product takes it ("LOGB").
    private let lockKey: Int32 = 0x4C4F_4742

    /// Ten trips at version 1, two of whose names repeat: the talk's stage keeps eight.
    private func writeV1(_ store: String) throws {
        let container = try ModelContainer(
            for: SampleTripsSchemaV1.Trip.self,
            configurations: ModelConfiguration(postgres: try TestServer.configuration(), store: store)
        )
        let context = ModelContext(container)
        for index in 0..<10 {
            let name = index >= 8 ? "Trip \(index - 8)" : "Trip \(index)"
            context.insert(
                SampleTripsSchemaV1.Trip(
                    name: name,
                    destination: "City \(index)",
                    start_date: Date(timeIntervalSince1970: Double(index) * 86_400),
                    end_date: Date(timeIntervalSince1970: Double(index + 1) * 86_400)
                )
            )
            try context.save()
        }
    }

    private func openAtV3(_ store: String, lockTimeout: Duration = .seconds(60)) throws -> ModelContainer {
        var server = try TestServer.configuration()
        server.migrationLockTimeout = lockTimeout
        return try ModelContainer(
            for: Trip.self,
            migrationPlan: SampleTripsMigrationPlan.self,
            configurations: ModelConfiguration(postgres: server, store: store)
        )
    }

    private func tripNames(_ container: ModelContainer) throws -> [String] {
        try ModelContext(container).fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).map(\.name)
    }

    @Test(.timeLimit(.minutes(1))) func threeHostsOpeningWithTheNewPlanAtOnceMigrateTheStoreOnce() async throws {
        let store = TestServer.uniqueStore()
        try await onThread { try writeV1(store) }
        let before = try await TestServer.rows(of: store).count
        #expect(before == 10)
        let opened = try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<3 { group.addTask { try await onThread { try tripNames(try openAtV3(store)) } } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let expected = (0..<8).map { "Trip \($0)" }
        #expect(opened == [expected, expected, expected])
        // One migration: the two stages' batches once, one after the other.
        let rows = try await TestServer.rows(of: store)
        #expect(rows.count == before + 2)
        #expect(zip(rows, rows.dropFirst()).allSatisfy { $0.last + 1 == $1.first })
        // A host opening later finds the store at the models' version.
        #expect(try await onThread { try tripNames(try openAtV3(store)) } == expected)
        #expect(try await TestServer.rows(of: store).count == before + 2)
    }

    @Test(.timeLimit(.minutes(1))) func aHostThatCannotHaveTheLockInTimeThrowsNamingTheVersions() async throws {
        let store = TestServer.uniqueStore()
        try await onThread { try writeV1(store) }
        let key = lockKey
        try await TestServer.withClient { client in
            try await client.withConnection { connection in
                // Another host is migrating: it holds the store's lock.
                for try await _ in try await connection.query(
                    "SELECT pg_advisory_lock(\(key), hashtext(\(store)))::text",
                    logger: connection.logger
                ) {}
                let opening = try await onThread {
                    Result { _ = try openAtV3(store, lockTimeout: .milliseconds(500)) }
                }
                let error = try #require(throws: LogbookError.self) { try opening.get() }
                #expect(error.code == .storeLocked)
                #expect(error.message.contains("from version 1.0.0 to the models' version 3.0.0"))
                #expect(error.message.contains("migration lock"))
                #expect(error.message.contains(store))
                for try await _ in try await connection.query(
                    "SELECT pg_advisory_unlock(\(key), hashtext(\(store)))::text",
                    logger: connection.logger
                ) {}
            }
        }
        // Nothing was appended; the store migrates once the lock is free.
        #expect(try await TestServer.rows(of: store).count == 10)
        #expect(try await onThread { try tripNames(try openAtV3(store)) }.count == 8)
    }

    @Test(.timeLimit(.minutes(1))) func aHostWaitsForTheLockAndOpensOnceItIsFree() async throws {
        let store = TestServer.uniqueStore()
        try await onThread { try writeV1(store) }
        let key = lockKey
        let names = try await TestServer.withClient { client in
            try await client.withConnection { connection in
                for try await _ in try await connection.query(
                    "SELECT pg_advisory_lock(\(key), hashtext(\(store)))::text",
                    logger: connection.logger
                ) {}
                let opening = Task { try await onThread { try tripNames(try openAtV3(store)) } }
                try await Task.sleep(for: .milliseconds(700))
                // Still waiting: nothing was appended while the lock was held.
                #expect(try await TestServer.rows(of: store).count == 10)
                for try await _ in try await connection.query(
                    "SELECT pg_advisory_unlock(\(key), hashtext(\(store)))::text",
                    logger: connection.logger
                ) {}
                return try await opening.value
            }
        }
        #expect(names == (0..<8).map { "Trip \($0)" })
        #expect(try await TestServer.rows(of: store).count == 12)
    }

}
