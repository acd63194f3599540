/// A log kept outside the store's directory, by a database server that many processes and
/// hosts share, of which the directory holds a copy: the seam through which `LogbookPostgres`
/// stores batches in PostgreSQL.
///
/// The external log holds the same batches as a log in segments, byte for byte (header,
/// checksum and payload; see <doc:OnDiskFormat>), each at the sequence number of its first
/// event. The directory's ``EventLog`` is a cache of it: a batch is appended to the external
/// log first, and only once it is there to the directory; batches that other writers appended
/// are copied into the directory before they are replayed (``Store/catchUpExternalLog()``).
///
/// Its calls are synchronous and may block on the network: they must not be made on a thread
/// that the external log's own I/O needs.
package protocol ExternalLog: Sendable {
    /// Where the external log lives, for messages: a server and a store name.
    var location: String { get }

    /// Appends framed batches, numbered one after the other, each at the sequence number of
    /// its first event, if no batch has the first one's number yet: all of them or none.
    ///
    /// A save appends one batch; a migration appends one per stage, which must land together
    /// so that no other writer's batch comes between them.
    ///
    /// - Parameter batches: The batches as ``BatchWriter`` framed them (header, then stored
    ///   payload), with their headers, in sequence order.
    /// - Throws: ``LogbookError/Code/conflict`` when a batch with one of those first sequence
    ///   numbers is there already: another writer appended first, and nothing was appended.
    ///   Any other error when the append failed or when whether it landed cannot be known.
    func append(_ batches: [(frame: [UInt8], header: BatchHeader)]) throws(LogbookError)

    /// Runs `body` while holding the store's migration lock, which one container of all
    /// processes and hosts that share the external log holds at a time: a container migrates
    /// the store under it, so that the others wait and then find the store migrated.
    ///
    /// The lock spares the others the work; the all-or-none ``append(_:)`` of the
    /// migration's batches keeps the log right even when a lock is lost with its connection.
    ///
    /// - Throws: What `body` throws; an error when the lock cannot be had in the time the
    ///   external log allows for it, naming the store.
    func withMigrationLock<T>(_ body: () throws -> T) throws -> T

    /// The framed batches whose first event comes after `sequence`, in order.
    func frames(after sequence: UInt64) throws(LogbookError) -> [[UInt8]]

    /// Keeps a checkpoint file where the containers of other hosts find it, with the newest
    /// ones kept before; older ones may be removed.
    ///
    /// - Parameters:
    ///   - sequence: The sequence number the checkpoint is at.
    ///   - bytes: The checkpoint file's bytes (see <doc:OnDiskFormat>).
    func storeCheckpoint(sequence: UInt64, bytes: [UInt8]) throws(LogbookError)

    /// The newest checkpoint kept by ``storeCheckpoint(sequence:bytes:)``, if any: what a
    /// container whose directory holds none starts from.
    func newestCheckpoint() throws(LogbookError) -> (sequence: UInt64, bytes: [UInt8])?

    /// Asks to be told, from any thread, when another writer may have appended batches.
    func onAppendElsewhere(_ wake: @escaping @Sendable () -> Void)

    /// Lets go of the connections; later calls fail.
    func close()
}
