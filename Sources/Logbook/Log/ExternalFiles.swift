import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The files under a store's `external` directory: the values of `.externalStorage` attributes
/// kept beside the log, one file per distinct value, named by its SHA-256 (see the
/// `OnDiskFormat` article, External values).
///
/// Writing a file is durable before it returns (temporary file, sync, rename, directory sync), so
/// that a batch appended afterwards never refers to a file a crash could lose. Reading one checks
/// its length and CRC32C against the reference.
package struct ExternalFiles: Sendable {
    /// The name of the directory inside the store.
    package static let directoryName = "external"
    /// The suffix of a file being written.
    static let temporarySuffix = ".tmp"

    /// The store's directory.
    package let storeDirectory: String
    let syscalls: any Syscalls

    package init(storeDirectory: String, syscalls: any Syscalls = PosixSyscalls()) {
        self.storeDirectory = storeDirectory
        self.syscalls = syscalls
    }

    /// The `external` directory.
    package var directory: String { SegmentDirectory.join(storeDirectory, Self.directoryName) }

    /// The path of the file that holds the value `reference` names.
    package func path(of reference: ExternalReference) -> String {
        SegmentDirectory.join(storeDirectory, reference.relativePath)
    }

    // MARK: - Writing

    /// Writes `bytes` to their file unless it holds them already, durably, and returns their
    /// reference.
    ///
    /// - Throws: ``LogbookError/Code/io`` naming the call and the path when a step fails; a
    ///   temporary file may be left behind, which readers ignore.
    @discardableResult
    package func write(_ bytes: Data) throws(LogbookError) -> ExternalReference {
        let reference = ExternalReference(of: bytes)
        try write(bytes, as: reference)
        return reference
    }

    /// Writes `bytes`, whose reference is `reference`, to their file unless it holds them
    /// already: checked by reading it back, or with `checkingExisting` false by its length alone
    /// (for a checkpoint, whose values came from files that were checked as they were read).
    func write(_ bytes: Data, as reference: ExternalReference, checkingExisting: Bool = true) throws(LogbookError) {
        let path = path(of: reference)
        // The same bytes saved before, by this save's retry or by another object: one file.
        if checkingExisting {
            if (try? read(reference, at: path)) != nil { return }
        } else if let file = try? SystemFile.open(path, flags: O_RDONLY | O_NOFOLLOW, syscalls: syscalls) {
            defer { file.close() }
            if let size = try? file.size(), UInt64(size) == reference.length { return }
        }
        try DurableFiles.makeDirectory(directory, in: storeDirectory, syscalls: syscalls)
        try DurableFiles.makeDirectory(SegmentDirectory.parent(of: path), in: directory, syscalls: syscalls)
        // A name of its own, so that a checkpoint and a save writing the same bytes at once
        // never write into one temporary file.
        let temporary = "\(path).\(String(UInt64.random(in: 0...UInt64.max), radix: 16))\(Self.temporarySuffix)"
        try DurableFiles.replace(path, with: [UInt8](bytes)[...], through: temporary, syscalls: syscalls)
    }

    // MARK: - Reading

    /// The bytes `reference` names, checked against its length and CRC32C.
    ///
    /// - Throws: ``LogbookError/Code/corruption`` naming the file when it is missing, of another
    ///   length, or its checksum differs; ``LogbookError/Code/io`` when it cannot be read.
    package func read(_ reference: ExternalReference) throws(LogbookError) -> Data {
        try read(reference, at: path(of: reference))
    }

    private func read(_ reference: ExternalReference, at path: String) throws(LogbookError) -> Data {
        let file: SystemFile
        do throws(LogbookError) {
            file = try SystemFile.open(path, flags: O_RDONLY | O_NOFOLLOW, syscalls: syscalls)
        } catch {
            if let errno = error.cause as? Errno, errno == .noEntry {
                throw LogbookError(.corruption, "missing external value file", path: path)
            }
            throw error
        }
        defer { file.close() }
        let size = try file.size()
        guard UInt64(size) == reference.length, size <= Int64(Int.max) else {
            throw LogbookError(
                .corruption,
                "external value file of \(size) bytes where \(reference.length) were written",
                path: path
            )
        }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        let count = try file.read(into: &bytes, count: bytes.count, at: 0)
        guard count == bytes.count else {
            throw LogbookError(.corruption, "external value file ends after \(count) bytes", path: path)
        }
        let checksum = CRC32C.checksum(bytes)
        guard checksum == reference.checksum else {
            throw LogbookError(
                .corruption,
                "external value file's CRC32C is \(String(checksum, radix: 16)) where \(String(reference.checksum, radix: 16)) was written",
                path: path
            )
        }
        return Data(bytes)
    }

    /// The bytes `reference` names, as a read of the `attribute` of `entity` object `id`.
    ///
    /// - Throws: ``LogbookError/Code/corruption`` (or ``LogbookError/Code/io``) whose message
    ///   names the file, the entity, the attribute and the object, and whose path is the file.
    package func read(
        _ reference: ExternalReference,
        entity: String,
        attribute: String,
        id: UInt64
    ) throws(LogbookError) -> Data {
        do throws(LogbookError) {
            return try read(reference)
        } catch {
            var named = error
            named.message =
                "\(error.message) \(path(of: reference)) of \(entity).\(attribute) of object \(id)"
            named.path = path(of: reference)
            throw named
        }
    }

    // MARK: - Listing

    /// The references of every value file in the directory, by path: the names that are 64
    /// hexadecimal digits in the directory of their first two. Temporary files are left out.
    package func listPaths() throws(LogbookError) -> [String] {
        let names: [String]
        switch syscalls.listDirectory(directory) {
        case .success(let listed): names = listed
        case .failure(let errno) where errno == .noEntry: return []
        case .failure(let errno): throw LogbookError.system("opendir", path: directory, errno)
        }
        var paths: [String] = []
        for name in names.sorted() where name.count == 2 {
            let subdirectory = SegmentDirectory.join(directory, name)
            guard case .success(let files) = syscalls.listDirectory(subdirectory) else { continue }
            for file in files.sorted() where file.count == 64 && file.hasPrefix(name) {
                paths.append(SegmentDirectory.join(subdirectory, file))
            }
        }
        return paths
    }

    /// The temporary files of writes that did not complete (a process that ended mid-write).
    package func listTemporaryPaths() -> [String] {
        guard case .success(let names) = syscalls.listDirectory(directory) else { return [] }
        var paths: [String] = []
        for name in names.sorted() where name.count == 2 {
            let subdirectory = SegmentDirectory.join(directory, name)
            guard case .success(let files) = syscalls.listDirectory(subdirectory) else { continue }
            for file in files.sorted() where file.hasSuffix(Self.temporarySuffix) {
                paths.append(SegmentDirectory.join(subdirectory, file))
            }
        }
        return paths
    }
}
