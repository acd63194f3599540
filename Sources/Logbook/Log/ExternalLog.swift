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

    /// Appends a framed batch at the sequence number of its first event, if no batch has that
    /// number yet.
    ///
    /// - Parameters:
    ///   - frame: The batch as ``BatchWriter`` framed it: header, then stored payload.
    ///   - header: The frame's header.
    /// - Throws: ``LogbookError/Code/conflict`` when a batch with that first sequence number is
    ///   there already: another writer appended first, and nothing was appended. Any other
    ///   error when the append failed or when whether it landed cannot be known.
    func append(frame: [UInt8], header: BatchHeader) throws(LogbookError)

    /// The framed batches whose first event comes after `sequence`, in order.
    func frames(after sequence: UInt64) throws(LogbookError) -> [[UInt8]]

    /// Asks to be told, from any thread, when another writer may have appended batches.
    func onAppendElsewhere(_ wake: @escaping @Sendable () -> Void)

    /// Lets go of the connections; later calls fail.
    func close()
}
