import Foundation
import SampleTrips
import Testing

@testable import Logbook

/// The log as other processes see it: a writer killed at random moments, a second writer, and a
/// reader running while a writer appends.
@Suite(.serialized)
struct MultiProcessTests {
    private func readAll(_ directory: String) throws -> [(UInt64, [UInt8])] {
        var cursor = LogReader(directory: directory).batches()
        var events: [(UInt64, [UInt8])] = []
        while let batch = try cursor.next() {
            events += batch.events.map { ($0.sequence, [UInt8]($0.bytes)) }
        }
        return events
    }

    @Test func aWriterKilledAtRandomMomentsLosesNoAcknowledgedBatch() throws {
        let store = TemporaryDirectory()
        var generator = SystemRandomNumberGenerator()
        var acknowledgedSoFar: UInt64 = 0
        let rounds = 24
        for round in 0..<rounds {
            let (process, out) = try ToolProcess.start([
                "_append-loop", store.path, "--segment-size", "4096", "--events-per-batch", "\(round % 4 + 1)",
            ])
            // Half the kills wait for the first acknowledgement, so that they land among appends
            // however slowly the process starts (under ThreadSanitizer, later than any window).
            var received = Data()
            if round % 2 == 0 {
                while !received.contains(UInt8(ascii: "\n")) {
                    let chunk = out.fileHandleForReading.availableData
                    if chunk.isEmpty { break }
                    received.append(chunk)
                }
            }
            usleep(UInt32.random(in: 20_000...120_000, using: &generator))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal, "round \(round)")
            received.append(out.fileHandleForReading.readDataToEndOfFile())
            let acks = ToolProcess.acknowledged(in: String(decoding: received, as: UTF8.self))
            let lastAcknowledged = acks.last?.upperBound ?? acknowledgedSoFar
            // Reopening recovers the store; every acknowledged event is there with its exact bytes.
            let log = try EventLog(directory: store.path)
            log.close()
            let events = try readAll(store.path)
            #expect(events.map(\.0) == Array(1..<(UInt64(events.count) + 1)), "round \(round): no gap")
            #expect(
                UInt64(events.count) >= lastAcknowledged,
                "round \(round): acknowledged \(lastAcknowledged), found \(events.count)"
            )
            for (sequence, bytes) in events where bytes != ToolProcess.appendLoopEvent(sequence) {
                Issue.record("round \(round): event \(sequence) holds the wrong bytes")
            }
            acknowledgedSoFar = max(lastAcknowledged, UInt64(events.count))
        }
        #expect(acknowledgedSoFar > UInt64(rounds), "the writer made progress in most rounds")
        let verify = try ToolProcess.run(["verify", store.path])
        #expect(verify.status == 0, "\(verify.stdout)")
    }

    @Test func aSecondWriterInAnotherProcessIsRefused() throws {
        let store = TemporaryDirectory()
        let log = try EventLog(directory: store.path)
        _ = try log.append([[1, 2, 3]])
        let refused = try ToolProcess.run(["_append-loop", store.path, "--batches", "1"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("already open for writing"))
        #expect(refused.stderr.contains(store.path))
        #expect(!refused.stderr.contains("Fatal error"))
        log.close()
        let accepted = try ToolProcess.run(["_append-loop", store.path, "--batches", "1"])
        #expect(accepted.status == 0)
        #expect(accepted.stdout == "ack 2 6\n")
    }

    @Test func aWriterInThisProcessIsRefusedWhileAnotherProcessWrites() throws {
        let store = TemporaryDirectory()
        let (process, out) = try ToolProcess.start(["_append-loop", store.path, "--relaxed"])
        defer {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        // Wait for the first acknowledgement: the child then holds the lock.
        let firstLine = readOutput(of: out, until: "\n", timeout: 60)
        #expect(firstLine.hasPrefix("ack 1 "), "\(firstLine)")
        let error = #expect(throws: LogbookError.self) { try EventLog(directory: store.path) }
        #expect(error?.code == .storeLocked)
    }

    @Test func aContainerInThisProcessIsRefusedWhileAnotherProcessWrites() throws {
        let store = TemporaryDirectory()
        let (process, out) = try ToolProcess.start(["_append-loop", store.path, "--relaxed"])
        defer {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let firstLine = readOutput(of: out, until: "\n", timeout: 60)
        #expect(firstLine.hasPrefix("ack 1 "), "\(firstLine)")
        let error = #expect(throws: LogbookError.self) {
            try ModelContainer(
                for: Trip.self,
                configurations: ModelConfiguration(url: URL(fileURLWithPath: store.path))
            )
        }
        #expect(error?.code == .storeLocked)
        #expect(error?.message.contains(store.path) == true)
    }

    @Test func aReaderInAnotherProcessSeesOnlyWholeBatchesWhileAWriterAppendsAndRolls() throws {
        let store = TemporaryDirectory()
        let (process, _) = try ToolProcess.start([
            "_append-loop", store.path, "--relaxed", "--segment-size", "8192", "--events-per-batch", "7",
        ])
        defer {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        var cursor = LogReader(directory: store.path).batches()
        var expected: UInt64 = 1
        var batches = 0
        let deadline = Date().addingTimeInterval(1.5)
        while Date() < deadline {
            guard let batch = try cursor.next() else {
                usleep(200)
                continue
            }
            #expect(batch.firstSequence == expected)
            #expect(batch.count == 7, "a whole batch")
            for (sequence, bytes) in batch.events where [UInt8](bytes) != ToolProcess.appendLoopEvent(sequence) {
                Issue.record("event \(sequence) holds the wrong bytes")
            }
            expected = batch.lastSequence + 1
            batches += 1
        }
        #expect(batches > 50, "the reader kept up with the writer")
        #expect(try LogReader(directory: store.path).segments().count > 2, "the writer rolled segments meanwhile")
    }
}

/// A process killed in the middle of a migration leaves the store at its old version.
struct MigrationCrashTests {
    @Test func aProcessKilledInsideAMigrationStageLeavesTheStoreAsItWasAndTheNextOpenMigrates() throws {
        let directory = TemporaryDirectory()
        let store = directory.child("trips.store")
        #expect(try ToolProcess.run(["_sample-store", "--version", "1", store]).status == 0)
        let segment = URL(fileURLWithPath: store + "/00000000000000000001.log")
        let before = try Data(contentsOf: segment)
        for round in 0..<3 {
            let (process, out) = try ToolProcess.start(["_migrate-slowly", "--pause", "30", store])
            let seen = readOutput(of: out, until: "in willMigrate", timeout: 60)
            #expect(seen.contains("in willMigrate"), "round \(round)")
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(try Data(contentsOf: segment) == before, "round \(round): nothing of the stage was written")
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: store).sorted() == [
                    "00000000000000000001.log", "LOCK", "durable",
                ]
            )
        }
        let finished = try ToolProcess.run(["_migrate-slowly", "--pause", "0", store])
        #expect(finished.status == 0, "\(finished.stderr)")
        #expect(finished.stdout.hasSuffix("migrated: 3 trips\n"))
        let markers = try ToolProcess.run(["dump", store, "--format", "json"]).stdout
            .split(separator: "\n").filter { $0.contains(#""kind":"migration""#) }
        #expect(markers.count == 2, "each stage ran exactly once")
        #expect(
            try Data(contentsOf: segment).prefix(before.count) == before,
            "the old events are still there, byte for byte"
        )
    }
}
