import Foundation
import SampleTrips
import Testing

@testable import Logbook

/// A store opened from a checkpoint keeps each table's values in the checkpoint's cells and
/// decodes a value when it is first read: what a fetch reads is decoded, the rest is not, and
/// everything reads back as a replay of the log gives it.
struct CheckpointDecodingOnReadTests {
    /// A store of `count` trips, each with two bucket-list items, and a checkpoint of it.
    private func tripsWithACheckpoint(_ count: Int) throws -> CheckpointStore {
        let store = CheckpointStore()
        let container = try store.open()
        let context = ModelContext(container)
        for index in 0..<count {
            let start = Date(timeIntervalSinceReferenceDate: Double((index * 7_919) % count) * 86_400)
            let trip = Trip(name: "trip \(index)", destination: "place \(index)", startDate: start, endDate: start)
            context.insert(trip)
            for item in 0..<2 {
                trip.bucketList?.append(
                    BucketListItem(title: "item \(index).\(item)", details: "d", hasReservation: false, isInPlan: true)
                )
            }
        }
        try context.save()
        try container.checkpoint()
        return store
    }

    /// Whether the table of `entity` still has values to decode from the checkpoint.
    private func decodesOnRead(_ container: ModelContainer, _ entity: String) -> Bool {
        container.store.read { state in
            state.projection.tables.first { $0.entity.name == entity }?.values.decodesOnRead ?? false
        }
    }

    private func firstScreen(_ container: ModelContainer) throws -> [String] {
        var descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.startDate), SortDescriptor(\.name)])
        descriptor.fetchLimit = 5
        return try ModelContext(container).fetch(descriptor).map { trip in
            let items = (trip.bucketList ?? []).map(\.title).sorted()
            return "\(trip.name)|\(trip.destination)|\(trip.startDate.timeIntervalSinceReferenceDate)|\(items)"
        }
    }

    @Test func aFirstScreenFromACheckpointDecodesWhatItReadsAndMatchesTheLog() throws {
        let store = try tripsWithACheckpoint(300)
        let fromCheckpoint = try store.open()
        #expect(store.openedFromCheckpoint)
        let lazy1 = decodesOnRead(fromCheckpoint, "Trip")
        #expect(lazy1)
        let screen = try firstScreen(fromCheckpoint)
        // The sort read every start date and name, the screen five trips and ten items: the
        // other values of both tables are still in the file.
        let lazy2 = decodesOnRead(fromCheckpoint, "Trip")
        #expect(lazy2)
        let lazy3 = decodesOnRead(fromCheckpoint, "BucketListItem")
        #expect(lazy3)
        #expect(screen.count == 5)
        #expect(screen.first?.hasPrefix("trip 0|place 0|0.0|") == true)
        let snapshot = try TripsSnapshot(fromCheckpoint)
        // Fetching everything decoded everything.
        let lazy4 = !decodesOnRead(fromCheckpoint, "Trip")
        #expect(lazy4)

        try store.hideCheckpoints()
        let fromLog = try store.open()
        #expect(try firstScreen(fromLog) == screen)
        #expect(try TripsSnapshot(fromLog) == snapshot)
    }

    @Test func aSortDecodesTheChosenAndALaterKeyOnlyWhereTheKeysBeforeItTie() throws {
        // 300 trips, start dates on 150 days, two trips a day: the destinations are compared
        // only between the two trips of a day that the selection meets.
        let store = CheckpointStore()
        do {
            let context = ModelContext(try store.open())
            for index in 0..<300 {
                let start = Date(timeIntervalSinceReferenceDate: Double((index * 7_919) % 150) * 86_400)
                context.insert(
                    Trip(name: "trip \(index)", destination: "place \(999 - index)", startDate: start, endDate: start)
                )
            }
            try context.save()
            try store.open().checkpoint()
        }
        let container = try store.open()
        #expect(store.openedFromCheckpoint)
        var descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.startDate), SortDescriptor(\.destination)])
        descriptor.fetchLimit = 6
        let context = ModelContext(container)
        let screen = try context.fetch(descriptor).map {
            "\($0.startDate.timeIntervalSinceReferenceDate)|\($0.destination)"
        }
        #expect(context.registry.count == 6)
        func decoded(_ name: String) -> Int {
            container.store.read { state -> Int in
                guard let table = state.projection.tables.first(where: { $0.entity.name == "Trip" }),
                    let attribute = table.entity.attributes.firstIndex(where: { $0.name == name })
                else { return -1 }
                return (0..<table.identifiers.count).filter {
                    !table.values.isUndecoded($0 * table.width + attribute)
                }.count
            }
        }
        // The first key is read from the cells without being kept: only the six returned have
        // their start dates decoded. The later key: the six, and those compared on ties, far
        // fewer than the 300 a full sort reads.
        #expect(decoded("startDate") == 6)
        let destinations = decoded("destination")
        #expect(destinations >= 6 && destinations < 100, "\(destinations)")

        try store.hideCheckpoints()
        let fromLog = try ModelContext(try store.open()).fetch(descriptor)
        #expect(fromLog.map { "\($0.startDate.timeIntervalSinceReferenceDate)|\($0.destination)" } == screen)
        #expect(screen.count == 6)
        #expect(screen[0] < screen[1] && screen[2] < screen[3])
    }

    @Test func valuesWrittenBeforeTheyWereReadReplaceTheirCellsAndSurviveAReopen() throws {
        let store = try tripsWithACheckpoint(200)
        do {
            let container = try store.open()
            #expect(store.openedFromCheckpoint)
            let context = ModelContext(container)
            let name = "trip 150"
            // The lookup by unique name reads names; the destination is written unread.
            guard let trip = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == name })).first
            else {
                Issue.record("trip 150 not found")
                return
            }
            trip.destination = "changed"
            context.insert(Trip(name: "trip new", destination: "new place", startDate: .now, endDate: .now))
            try context.save()
            let lazy5 = decodesOnRead(container, "Trip")
            #expect(lazy5)
            let again = try ModelContext(container).fetch(
                FetchDescriptor<Trip>(predicate: #Predicate { $0.name == name })
            )
            #expect(again.map(\.destination) == ["changed"])
        }
        let reopened = try TripsSnapshot(try store.open())
        #expect(store.openedFromCheckpoint)
        #expect(reopened.trips.contains { $0.hasPrefix("trip 150|changed|") })
        #expect(reopened.counts == [201, 400, 0])
        try store.hideCheckpoints()
        #expect(try TripsSnapshot(try store.open()) == reopened)
    }

    @Test func readersOnSeveralThreadsAtOnceDecodeTheSameValues() throws {
        let store = try tripsWithACheckpoint(400)
        try store.hideCheckpoints()
        let expected = try ModelContext(try store.open()).fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
            .map { "\($0.name)|\($0.destination)|\($0.startDate.timeIntervalSinceReferenceDate)" }
        // Put the checkpoint back: a fresh store directory holds only the hidden one.
        let hidden = try FileManager.default.contentsOfDirectory(atPath: store.directory.path)
            .filter { $0.hasPrefix("hidden-") }
        #expect(hidden.count == 1)
        try FileManager.default.moveItem(atPath: store.directory.child(hidden[0]), toPath: store.checkpointsPath)
        let container = try store.open()
        #expect(store.openedFromCheckpoint)
        let results = Locked<[[String]]>([])
        let threads = (0..<4).map { _ in
            Thread {
                let fetched =
                    (try? ModelContext(container).fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))) ?? []
                let rows = fetched.map { "\($0.name)|\($0.destination)|\($0.startDate.timeIntervalSinceReferenceDate)" }
                results.withLock { $0.append(rows) }
            }
        }
        for thread in threads { thread.start() }
        #expect(eventually { results.withLock { $0.count } == 4 })
        for rows in results.withLock({ $0 }) { #expect(rows == expected) }
    }

    @Test func aCellOfAnUnknownKindWithValidChecksumsIsReadFromTheLogWithAWarning() throws {
        let store = try tripsWithACheckpoint(50)
        let expected = try TripsSnapshot(try store.open())
        guard let entry = try store.checkpoints().first else {
            Issue.record("no checkpoint")
            return
        }
        let reader = try CheckpointReader(path: entry.path)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: entry.path)))
        // The first values section with cells: its first cell's tag becomes one no release knows,
        // and every checksum is computed again over the change.
        guard let index = reader.sections.firstIndex(where: { $0.kind == .values && !$0.range.isEmpty }) else {
            Issue.record("no values section")
            return
        }
        let section = reader.sections[index]
        bytes[section.range.lowerBound] = 0xEE
        #expect(CheckpointSeal.reseal(&bytes))
        try Data(bytes).write(to: URL(fileURLWithPath: entry.path))
        #expect(try CheckpointReader(path: entry.path).sections.count == reader.sections.count)

        // The open does not read the cell; the read that does takes its object from the log.
        let container = try store.open()
        #expect(store.openedFromCheckpoint)
        #expect(!store.warnings.contains { $0.contains(entry.path) })
        #expect(try TripsSnapshot(container) == expected)
        let warning = store.warnings.first { $0.contains("damaged checkpoint \(entry.path)") }
        #expect(warning?.contains("unknown value tag 238") == true, "\(store.warnings)")
        #expect(warning?.contains("the cell at byte \(section.range.lowerBound)") == true, "\(store.warnings)")
    }

    @Test func theSavesAfterACheckpointReplayFromTheNextBatchAcrossSegments() throws {
        // Segments of 512 bytes: a save or two each, so that checkpoints fall in the middle of a
        // segment and at its end, and the saves after them run into the next segments.
        for checkpointAfter in [1, 3, 4, 7] {
            let store = CheckpointStore()
            var configuration = store.configuration()
            configuration.segmentSize = 512
            var expected: [String] = []
            do {
                let container = try ModelContainer(for: Trip.self, configurations: configuration)
                for save in 0..<12 {
                    let context = ModelContext(container)
                    for index in 0..<6 {
                        let name = "trip \(save).\(index)"
                        let start = Date(timeIntervalSinceReferenceDate: Double(save * 10 + index))
                        context.insert(Trip(name: name, destination: "at \(save)", startDate: start, endDate: start))
                    }
                    try context.save()
                    if save + 1 == checkpointAfter { try container.checkpoint() }
                }
                expected = try ModelContext(container).fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
                    .map { "\($0.name)|\($0.destination)" }
            }
            let segments = try SegmentDirectory.segments(in: store.path, syscalls: PosixSyscalls())
            #expect(segments.count > 2, "\(segments.count) segments")
            let reopened = try ModelContainer(for: Trip.self, configurations: configuration)
            #expect(store.openedFromCheckpoint)
            let names = try ModelContext(reopened).fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
                .map { "\($0.name)|\($0.destination)" }
            #expect(names == expected, "checkpoint after save \(checkpointAfter)")
            #expect(names.count == 72)
        }
    }

    @Test func uniqueValuesAreEnforcedRightAfterAnOpenFromACheckpoint() throws {
        let store = try tripsWithACheckpoint(500)
        do {
            let container = try store.open()
            #expect(store.openedFromCheckpoint)
            // The first thing after the open: an insert of a name that is taken, which folds
            // into the trip holding it, while its unique index may still be being built.
            let context = ModelContext(container)
            context.insert(Trip(name: "trip 499", destination: "folded", startDate: .now, endDate: .now))
            try context.save()
            let name = "trip 499"
            let found = try ModelContext(container).fetch(
                FetchDescriptor<Trip>(predicate: #Predicate { $0.name == name })
            )
            #expect(found.map(\.destination) == ["folded"])
            #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 500)
            let indexed = container.store.read { state in
                state.projection.tables.first { $0.entity.name == "Trip" }?.uniqueIndexContents.first?.count
            }
            #expect(indexed == 500)
        }
        let reopened = try TripsSnapshot(try store.open())
        #expect(store.openedFromCheckpoint)
        #expect(reopened.counts.first == 500)
        try store.hideCheckpoints()
        #expect(try TripsSnapshot(try store.open()) == reopened)
    }

    /// Whether `condition` holds within ten seconds.
    /// A checkpoint written by a store opened from another copies the cells nothing read as
    /// they lie, encodes the values read or written since, and leaves the store's values
    /// undecoded: the next open from it reads what a replay of the log gives.
    @Test func aCheckpointOfACheckpointCopiesTheCellsNothingReadAndMatchesTheLog() throws {
        let store = try tripsWithACheckpoint(200)
        let first = try #require(try store.checkpoints().first)
        let expected: TripsSnapshot
        do {
            let container = try store.open()
            #expect(store.openedFromCheckpoint)
            _ = try firstScreen(container)
            let context = ModelContext(container)
            var descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])
            descriptor.fetchLimit = 7
            for trip in try context.fetch(descriptor) { trip.destination = "moved \(trip.name)" }
            context.insert(Trip(name: "a new trip", destination: "Faro", startDate: .now, endDate: .now))
            try context.save()
            try container.checkpoint()
            let stillLazy = decodesOnRead(container, "Trip")
            #expect(stillLazy, "writing the checkpoint decoded nothing")
            expected = try TripsSnapshot(container)
        }
        let entries = try store.checkpoints()
        #expect(entries.count == 2 && entries[0].sequence > first.sequence)
        try FileManager.default.removeItem(atPath: first.path)
        let fromSecond = try store.open()
        let screen = try firstScreen(fromSecond)
        #expect(try TripsSnapshot(fromSecond) == expected)
        let destinations = try ModelContext(fromSecond).fetch(FetchDescriptor<Trip>()).filter {
            $0.destination.hasPrefix("moved")
        }
        #expect(destinations.count == 7)
        try store.hideCheckpoints()
        let replayed = try store.open()
        #expect(try firstScreen(replayed) == screen)
        #expect(try TripsSnapshot(replayed) == expected)
    }

    #if os(Linux)
    /// A table whose every value was read holds its values once, in memory: the pages of its
    /// cells and heap in the mapped checkpoint are let go of, and what they held reads back
    /// right afterwards.
    @Test func aTableReadThroughLetsGoOfItsCheckpointPages() throws {
        let store = try tripsWithACheckpoint(4_000)
        let entry = try #require(try store.checkpoints().first)
        let (cellsAndHeaps, links) = try {
            let reader = try CheckpointReader(path: entry.path)
            func bytes(_ kinds: [CheckpointFormat.Kind]) -> Int {
                reader.sections.filter { kinds.contains($0.kind) }.map(\.range.count).reduce(0, +)
            }
            return (bytes([.values, .heap]), bytes([.links]))
        }()
        let container = try store.open()
        #expect(store.openedFromCheckpoint)
        container.store.read { state in
            for table in state.projection.tables { table.values.withUnsafeBufferPointer { _ in } }
        }
        for entity in ["Trip", "BucketListItem", "LivingAccommodation"] {
            let lazy = decodesOnRead(container, entity)
            #expect(!lazy, "\(entity) read through")
        }
        // The to-many lists are still read where they lie; every other section was let go of.
        let resident = try Self.residentBytes(mapping: entry.path)
        #expect(cellsAndHeaps > 2 * (links + (64 << 10)), "the cells and heaps (\(cellsAndHeaps) bytes) dominate")
        #expect(resident <= links + (64 << 10), "\(resident) bytes of the checkpoint resident, links \(links)")
        let read = try TripsSnapshot(container)
        _ = consume container
        try store.hideCheckpoints()
        #expect(try TripsSnapshot(try store.open()) == read)
    }

    /// A first screen sorted on a date reads that date of every trip, a pass over every page of
    /// the trips' cells: it lets go of them as it goes, and keeps the few its screen reads.
    @Test func aSortedFirstScreenLetsGoOfThePagesOfTheCellsItSortedBy() throws {
        let store = CheckpointStore()
        do {
            let container = try store.open()
            try CheckpointStore.insertTrips(60_000, itemsEach: 0, into: container)
            try container.checkpoint()
        }
        let entry = try #require(try store.checkpoints().first)
        let sections = try CheckpointReader(path: entry.path).sections
        let values = sections.filter { $0.kind == .values }.map(\.range.count).max() ?? 0
        let identifiers = sections.filter { $0.kind == .entity }.map(\.range.count).max() ?? 0
        let container = try store.open()
        #expect(store.openedFromCheckpoint)
        var descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.startDate, order: .reverse)])
        descriptor.fetchLimit = 5
        let names = try ModelContext(container).fetch(descriptor).map(\.name)
        #expect(names == (59_995..<60_000).reversed().map { "trip \($0)" })
        let resident = try Self.residentBytes(mapping: entry.path)
        #expect(values > 3_000_000)
        #expect(resident < values / 2, "\(resident) bytes of the checkpoint resident, the trips' cells \(values)")
        // The sort read every trip's identifier too, and let go of them as of the cells. The
        // five trips made are decoded, and the 64 KiB around their cells and their names, which
        // their reads checked and mapped, let go of: ten such chunks were left beside the
        // identifiers, less than two are.
        #expect(identifiers > 400_000)
        #expect(
            resident < 2 * CheckpointFormat.chunkSize,
            "\(resident) bytes resident after five trips, identifiers \(identifiers)"
        )
    }

    /// A first screen of trips spread over the table, with their bucket lists: each trip's
    /// list, and each item's identifier looked up, lie somewhere else in the checkpoint, and
    /// the chunks those reads mapped are let go of once the items are made.
    @Test func aFirstScreenWithItsRelationshipsLetsGoOfTheListsAndIdentifiersItRead() throws {
        let store = CheckpointStore()
        let count = 20_000
        do {
            let container = try store.open()
            let context = ModelContext(container)
            for index in 0..<count {
                // Start dates in a shuffled order: the earliest trips lie all over the table.
                let start = Date(timeIntervalSinceReferenceDate: Double(index * 7_919 % count) * 86_400)
                let trip = Trip(name: "trip \(index)", destination: "place \(index)", startDate: start, endDate: start)
                context.insert(trip)
                trip.bucketList = (0..<5).map { item in
                    BucketListItem(title: "item \(index).\(item)", details: "", hasReservation: false, isInPlan: true)
                }
            }
            try context.save()
            try container.checkpoint()
        }
        let entry = try #require(try store.checkpoints().first)
        let container = try store.open()
        #expect(store.openedFromCheckpoint)
        var descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.startDate)])
        descriptor.fetchLimit = 8
        let context = ModelContext(container)
        let trips = try context.fetch(descriptor)
        let firsts = (0..<8).map { day in (0..<count).first { $0 * 7_919 % count == day } ?? -1 }
        #expect(trips.map(\.name) == firsts.map { "trip \($0)" })
        for (trip, index) in zip(trips, firsts) {
            #expect(trip.bucketList?.map(\.title).sorted() == (0..<5).map { "item \(index).\($0)" })
        }
        // Eight trips' lists, their forty items' identifiers, the trips' identifiers: 1,445,888
        // bytes stayed before their chunks were let go of; 348,160 do.
        let resident = try Self.residentBytes(mapping: entry.path)
        #expect(resident < 6 * CheckpointFormat.chunkSize, "\(resident) bytes of the checkpoint resident")
        withExtendedLifetime(context) {}
    }

    /// A first screen sorted on a date, then on a name, compares the names of the trips that
    /// start on the same day: read at random over the heap, they are let go of with the cells,
    /// and the order is the one the names give.
    @Test func aSecondSortKeyReadAtRandomLetsGoOfTheHeapItRead() throws {
        let store = CheckpointStore()
        let count = 60_000
        let days = 30
        do {
            let container = try store.open()
            let context = ModelContext(container)
            for index in 0..<count {
                let start = Date(timeIntervalSinceReferenceDate: Double(index % days) * 86_400)
                context.insert(
                    Trip(name: "trip \(index)", destination: "place \(index)", startDate: start, endDate: start)
                )
            }
            try context.save()
            try container.checkpoint()
        }
        let entry = try #require(try store.checkpoints().first)
        let sections = try CheckpointReader(path: entry.path).sections
        let heap = sections.filter { $0.kind == .heap }.map(\.range.count).max() ?? 0
        let container = try store.open()
        #expect(store.openedFromCheckpoint)
        var descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.startDate), SortDescriptor(\.name)])
        descriptor.fetchLimit = 5
        let names = try ModelContext(container).fetch(descriptor).map(\.name)
        let firstDay = stride(from: 0, to: count, by: days).map { "trip \($0)" }.sorted()
        #expect(names == Array(firstDay.prefix(5)))
        let resident = try Self.residentBytes(mapping: entry.path)
        #expect(heap > 16 * CheckpointFormat.chunkSize)
        #expect(resident < 4 * CheckpointFormat.chunkSize, "\(resident) bytes resident, the trips' heap \(heap)")
    }

    /// The resident bytes of this process's mappings of the file at `path` (`Rss` in
    /// `/proc/self/smaps`).
    private static func residentBytes(mapping path: String) throws -> Int {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        // A file of /proc has no size: it is read to its end.
        let file = try #require(FileHandle(forReadingAtPath: "/proc/self/smaps"))
        defer { try? file.close() }
        let smaps = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
        var total = 0
        var inMapping = false
        for line in smaps.split(separator: "\n") {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if let first = fields.first, first.contains("-"), !first.hasSuffix(":") {
                inMapping = fields.last.map { $0 == path || $0 == resolved } ?? false
            } else if inMapping, fields.first == "Rss:", fields.count >= 2, let kilobytes = Int(fields[1]) {
                total += kilobytes * 1024
            }
        }
        return total
    }
    #endif

    private func eventually(_ condition: () -> Bool) -> Bool {
        for _ in 0..<1_000 {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }
}
