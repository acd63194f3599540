import Foundation

/// What `logbook verify` finds about a store's value files: every reference in the log checked
/// against its file (length, CRC32C and SHA-256), and the files no batch refers to.
package struct ExternalFilesCheck: Sendable {
    /// A reference whose file is missing or does not hold the bytes it names.
    package struct Damage: Sendable, CustomStringConvertible {
        /// The file's path.
        package var path: String
        /// The reference that names it.
        package var reference: ExternalReference
        /// What is wrong with it.
        package var reason: String
        /// The entity, attribute and object whose value it is.
        package var entity: String
        package var attribute: String
        package var id: UInt64
        /// The event that refers to it, and its batch's segment and byte offset.
        package var sequence: UInt64
        package var segment: String
        package var offset: Int64

        package var description: String {
            "\(path): \(reason), the value of \(entity).\(attribute) of object \(id) at sequence \(sequence) (batch at byte offset \(offset) of \(SegmentDirectory.lastComponent(of: segment)))"
        }
    }

    /// The number of references in the log.
    package var references = 0
    /// The number of distinct files they name.
    package var files = 0
    /// The references whose files are missing or damaged, each once per referring event.
    package var damages: [Damage] = []
    /// The value files no batch refers to: harmless, left by a save that failed or a process
    /// that ended between writing a file and appending its batch.
    package var unreferenced: [String] = []

    /// Checks the value files of the store in `directory` against the references its log holds.
    ///
    /// Only batches of format version 5 with ``LogFormat/flagExternal`` are decoded.
    ///
    /// - Throws: ``LogbookError`` for a batch or an event that cannot be read: damage the log's
    ///   own verification reports.
    package static func check(directory: String) throws(LogbookError) -> ExternalFilesCheck {
        let files = ExternalFiles(storeDirectory: directory)
        var report = ExternalFilesCheck()
        var verdicts: [ExternalReference: String?] = [:]
        var cursor = LogReader(directory: directory).batches()
        while let batch = try cursor.next() {
            guard batch.header.flags & LogFormat.flagExternal != 0 else { continue }
            for index in 0..<batch.count {
                let sequence = batch.firstSequence + UInt64(index)
                let envelope = try batch.decodedEvent(at: index, sequence: sequence)
                guard let written = envelope.event.writtenFields else { continue }
                let (entity, id) = (written.entity, written.id)
                for field in written.fields {
                    guard let reference = field.external else { continue }
                    report.references += 1
                    let verdict: String?
                    if let known = verdicts[reference] {
                        verdict = known
                    } else {
                        verdict = problem(with: reference, in: files)
                        verdicts[reference] = verdict
                    }
                    guard let verdict else { continue }
                    report.damages.append(
                        Damage(
                            path: files.path(of: reference),
                            reference: reference,
                            reason: verdict,
                            entity: entity,
                            attribute: field.name,
                            id: id,
                            sequence: sequence,
                            segment: batch.segment,
                            offset: batch.offset
                        )
                    )
                }
            }
        }
        report.files = verdicts.count
        let referenced = Set(verdicts.keys.map { files.path(of: $0) })
        report.unreferenced = try files.listPaths().filter { !referenced.contains($0) }
        return report
    }

    /// What is wrong with the file of `reference`, or `nil` when it holds exactly the bytes the
    /// reference names (its SHA-256 included).
    private static func problem(with reference: ExternalReference, in files: ExternalFiles) -> String? {
        do {
            let bytes = try files.read(reference)
            return SHA256.hash(bytes) == reference.hash ? nil : "its SHA-256 differs from its name"
        } catch {
            return error.message
        }
    }
}

extension ExternalFilesCheck {
    /// Removes the value files of the store in `directory` that no batch of its log refers to,
    /// and the temporary files of writes that did not complete, under the store's writer lock,
    /// so that no save can be writing one meanwhile.
    ///
    /// - Returns: The paths removed.
    /// - Throws: ``LogbookError/Code/storeLocked`` when the store is open for writing;
    ///   ``LogbookError`` for a log that cannot be read (nothing is removed then), or a file that
    ///   cannot be removed.
    package static func removeUnreferenced(
        directory: String,
        syscalls: any Syscalls = PosixSyscalls()
    ) throws(LogbookError) -> [String] {
        let lock = try StoreLock(directory: directory, timeout: 0.25, syscalls: syscalls)
        defer { lock.release() }
        let files = ExternalFiles(storeDirectory: directory, syscalls: syscalls)
        let unused = try check(directory: directory).unreferenced + files.listTemporaryPaths()
        var synced: Set<String> = []
        for path in unused.sorted() {
            if case .failure(let errno) = syscalls.unlink(path), errno != .noEntry {
                throw LogbookError.system("unlink", path: path, errno)
            }
            synced.insert(SegmentDirectory.parent(of: path))
        }
        for subdirectory in synced.sorted() { try SegmentDirectory.syncDirectory(subdirectory, syscalls: syscalls) }
        return unused.sorted()
    }
}
