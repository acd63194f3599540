import Foundation
import Logbook
import SampleTrips

/// Makes a soak script's saves in a store, printing `ack N` on standard output once save `N`
/// has returned, so that the driver knows which saves were acknowledged when it kills the
/// writer.
struct SoakWriter {
    let script: SoakScript
    let store: URL

    /// Runs operations `first` through the end of the script.
    func run(from first: Int) throws {
        var state = script.state(after: first - 1)
        var step = first
        // A store killed between the migration's stages is at version 2 with the version-1
        // saves all done: it goes straight to the plan.
        if first < script.migrationStep {
            let container = try ModelContainer(
                for: SampleTripsSchemaV1.Trip.self,
                configurations: ModelConfiguration(url: store)
            )
            step = try run(
                from: step,
                announce: true,
                upTo: script.migrationStep - 1,
                state: &state,
                in: container,
                as: SampleTripsSchemaV1.Trip.self
            )
        }
        guard step <= script.length else { return }
        // Operation `migrationStep` is opening the store through the plan.
        if first == script.migrationStep { ready() }
        let container = try ModelContainer(
            for: SampleTripsSchemaV3.Trip.self,
            migrationPlan: SampleTripsMigrationPlan.self,
            configurations: ModelConfiguration(url: store)
        )
        if step == script.migrationStep {
            acknowledge(step)
            step += 1
        }
        _ = try run(
            from: step,
            announce: first > script.migrationStep,
            upTo: script.length,
            state: &state,
            in: container,
            as: SampleTripsSchemaV3.Trip.self
        )
    }

    /// Runs edits `first` through `last` with one version's models; returns the next step.
    private func run<T: SoakTrip>(
        from first: Int,
        announce: Bool,
        upTo last: Int,
        state: inout SoakState,
        in container: ModelContainer,
        as _: T.Type
    ) throws -> Int {
        let context = ModelContext(container)
        var trips = Dictionary(uniqueKeysWithValues: try context.fetch(FetchDescriptor<T>()).map { ($0.name, $0) })
        if announce { ready() }
        var step = first
        while step <= last {
            let operation = script.operation(step, before: state)
            guard case .edit(let inserts, let updates, let deletes) = operation else { break }
            for record in inserts {
                let trip = T.make(record)
                context.insert(trip)
                trip.items = record.bucketList.map(T.Item.make)
                trip.stay = record.accommodation.map(T.Stay.make)
                trips[record.name] = trip
            }
            for update in updates {
                guard let trip = trips[update.name] else { throw SoakFailure("step \(step): no trip \(update.name)") }
                trip.destination = update.destination
                trip.items.append(T.Item.make(update.newItem))
            }
            for name in deletes {
                guard let trip = trips.removeValue(forKey: name) else {
                    throw SoakFailure("step \(step): no trip \(name)")
                }
                context.delete(trip)
            }
            try context.save()
            acknowledge(step)
            script.apply(operation, at: step, to: &state)
            step += 1
        }
        return step
    }

    /// Tells the driver that the store is open and the saves begin; the driver may wait for this
    /// line before it picks the moment of the kill, so that most kills land among the saves
    /// rather than while the process starts.
    private func ready() {
        emit("ready\n")
    }

    /// Writes `ack N`.
    private func acknowledge(_ step: Int) {
        emit("ack \(step)\n")
    }

    /// Writes straight to the file descriptor, unbuffered.
    private func emit(_ text: String) {
        let line = Array(text.utf8)
        line.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(1, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }
}

/// A soak run that found a broken promise, or could not go on.
struct SoakFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
