#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds, writes and removes the checkpoint files of a store, through the system-call layer.
package enum CheckpointFiles {
    /// A checkpoint file found in a store.
    package struct Entry: Sendable, Hashable {
        /// The sequence number its name holds.
        package var sequence: UInt64
        package var path: String
    }

    /// The store's checkpoints directory.
    package static func directory(of store: String) -> String {
        SegmentDirectory.join(store, CheckpointFormat.directoryName)
    }

    /// The checkpoints of a store, newest first; none when the directory does not exist. Files
    /// with other names (a `.tmp` left by a failed write) are not listed.
    package static func list(in store: String, syscalls: any Syscalls = PosixSyscalls()) throws(LogbookError) -> [Entry]
    {
        let directory = directory(of: store)
        switch syscalls.listDirectory(directory) {
        case .success(let names):
            return names.compactMap { name in
                CheckpointFormat.sequence(ofFileName: name).map {
                    Entry(sequence: $0, path: SegmentDirectory.join(directory, name))
                }
            }
            .sorted { $0.sequence > $1.sequence }
        case .failure(let errno) where errno == .noEntry:
            return []
        case .failure(let errno):
            throw LogbookError.system("opendir", path: directory, errno)
        }
    }

    /// The checksum in the header of the store's first batch, which stands for the store in its
    /// checkpoints; `nil` for a store without a batch.
    package static func storeIdentity(
        of store: String,
        syscalls: any Syscalls = PosixSyscalls()
    ) throws(LogbookError)
        -> UInt32?
    {
        guard let first = try SegmentDirectory.segments(in: store, syscalls: syscalls).first else { return nil }
        let file = try SystemFile.open(first.path, flags: O_RDONLY | O_NOFOLLOW | O_NONBLOCK, syscalls: syscalls)
        defer { file.close() }
        var bytes = [UInt8](repeating: 0, count: LogFormat.headerSize)
        let count = try file.read(into: &bytes, count: bytes.count, at: 0)
        guard count == bytes.count else { return nil }
        return bytes.withUnsafeBytes { BatchHeader.read(from: $0)?.checksum }
    }

    /// The schema fingerprint in the header of the store's newest checkpoint, read without
    /// checking the file: a hint of the schema an open will most likely start from, for work
    /// that is only worth starting when it will not (see ``Migrator``). `nil` when there is no
    /// checkpoint or its header cannot be read.
    static func newestSchemaFingerprint(in store: String, syscalls: any Syscalls) -> [UInt8]? {
        guard let newest = try? list(in: store, syscalls: syscalls).first,
            let file = try? SystemFile.open(newest.path, flags: O_RDONLY | O_NOFOLLOW | O_NONBLOCK, syscalls: syscalls)
        else { return nil }
        defer { file.close() }
        let end = fingerprintOffset + 32
        var bytes = [UInt8](repeating: 0, count: end)
        guard (try? file.read(into: &bytes, count: end, at: 0)) == end,
            bytes.withUnsafeBytes({ $0.loadUnaligned(as: UInt32.self) }) == CheckpointFormat.magic.littleEndian
        else { return nil }
        return Array(bytes[fingerprintOffset..<end])
    }

    /// Where the schema fingerprint lies in a checkpoint's header.
    private static let fingerprintOffset = 64

    /// The bytes of every segment of the store.
    package static func logBytes(
        of store: String,
        syscalls: any Syscalls = PosixSyscalls()
    ) throws(LogbookError)
        -> UInt64
    {
        var total: UInt64 = 0
        for segment in try SegmentDirectory.segments(in: store, syscalls: syscalls) {
            let file = try SystemFile.open(segment.path, flags: O_RDONLY | O_NOFOLLOW | O_NONBLOCK, syscalls: syscalls)
            defer { file.close() }
            total += UInt64(max(0, try file.size()))
        }
        return total
    }

    /// The fingerprint of what a history of schemas changes in a replay: the former names it
    /// gives each attribute and relationship of `schema` (see <doc:OnDiskFormat>).
    package static func historyFingerprint(of schema: Schema, history: [Schema]) -> [UInt8] {
        var writer = BinaryWriter()
        for (entity, names) in schema.formerNames(through: history).sorted(by: { $0.key < $1.key }) {
            for (property, former) in names.sorted(by: { $0.key < $1.key }) where !former.isEmpty {
                writer.writeString(entity)
                writer.writeString(property)
                writer.writeVarint(UInt64(former.count))
                for name in former { writer.writeString(name) }
            }
        }
        return SHA256.hash(writer.bytes)
    }

    /// Writes `bytes` as the checkpoint at `sequence`: into a temporary file that is synced,
    /// renamed into place, and the directory synced. A failure leaves at most the temporary
    /// file, which readers ignore.
    ///
    /// - Returns: The checkpoint's path.
    static func write(
        _ bytes: [UInt8],
        sequence: UInt64,
        in store: String,
        syscalls: any Syscalls
    ) throws(LogbookError)
        -> String
    {
        try write(
            CheckpointImage(head: bytes, sections: [], size: bytes.count),
            sequence: sequence,
            in: store,
            syscalls: syscalls
        )
    }

    /// ``write(_:sequence:in:syscalls:)`` for a checkpoint laid out in sections, written one by
    /// one.
    static func write(
        _ image: CheckpointImage,
        sequence: UInt64,
        in store: String,
        syscalls: any Syscalls
    ) throws(LogbookError)
        -> String
    {
        let directory = directory(of: store)
        try DurableFiles.makeDirectory(directory, in: store, syscalls: syscalls)
        let name = CheckpointFormat.fileName(forSequence: sequence)
        let path = SegmentDirectory.join(directory, name)
        try DurableFiles.replace(path, through: path + CheckpointFormat.temporarySuffix, syscalls: syscalls) {
            (file) throws(LogbookError) in try image.write(to: file)
        }
        return path
    }

    /// Removes all but the newest `kept` checkpoints, and the temporary files of writes that
    /// failed or were cut short. A file that cannot be removed stays.
    ///
    /// - Returns: The paths removed.
    @discardableResult
    static func prune(in store: String, keeping kept: Int = CheckpointFormat.kept, syscalls: any Syscalls) -> [String] {
        guard let entries = try? list(in: store, syscalls: syscalls) else { return [] }
        var removed: [String] = []
        let directory = directory(of: store)
        if case .success(let names) = syscalls.listDirectory(directory) {
            let suffix = CheckpointFormat.fileExtension + CheckpointFormat.temporarySuffix
            for name in names where name.hasSuffix(suffix) {
                let path = SegmentDirectory.join(directory, name)
                if case .success = syscalls.unlink(path) { removed.append(path) }
            }
        }
        for entry in entries.dropFirst(kept) {
            if case .success = syscalls.unlink(entry.path) { removed.append(entry.path) }
        }
        return removed
    }
}
