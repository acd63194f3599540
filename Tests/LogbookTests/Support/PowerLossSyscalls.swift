import Foundation
import Synchronization

@testable import Logbook

/// A file layer that remembers what has reached the disk, so that a test can cut the power: at
/// call number `n` every call starts to fail, as if the machine had stopped, and
/// ``losePower(mode:)`` then puts every file and directory entry back to what the last
/// `fsync`/`fdatasync` made durable.
///
/// Files created since their directory was last synced disappear; a file's data written since its
/// last sync is lost. In ``Mode/tearLastWrite`` the unsynced writes reach the disk except the
/// last, of which only a prefix does, as when the power fails in the middle of a write.
final class PowerLossSyscalls: Syscalls {
    enum Mode: Sendable, CaseIterable {
        case dropUnsynced
        case tearLastWrite
    }

    private struct File {
        /// The file's bytes as of its last sync; `nil` when it was created and never synced.
        var durable: [UInt8]?
        /// Whether the directory entry is durable.
        var entryDurable: Bool
        /// Writes since the last sync, in order.
        var pending: [(offset: Int64, bytes: [UInt8])] = []
        /// A truncation since the last sync.
        var truncatedTo: Int64?
    }

    private struct State {
        var calls = 0
        var powerFailsAt: Int?
        var dead = false
        var descriptors: [Int32: String] = [:]
        var files: [String: File] = [:]
        var directories: [String: Bool] = [:]
    }

    private let real = PosixSyscalls()
    private let state = Mutex(State())

    /// A layer whose power fails at call `n` (1-based) of those that change files.
    init(powerFailsAt n: Int?) {
        state.withLock { $0.powerFailsAt = n }
    }

    /// How many calls changed files or directories.
    var calls: Int { state.withLock { $0.calls } }
    /// Whether the power failed.
    var powerFailed: Bool { state.withLock { $0.dead } }

    /// Counts a changing call; `false` once the power has failed.
    private func alive() -> Bool {
        state.withLock { state in
            if state.dead { return false }
            state.calls += 1
            if state.calls == state.powerFailsAt { state.dead = true }
            return !state.dead
        }
    }

    private var isDead: Bool { state.withLock { $0.dead } }

    /// Puts every file back to what had reached the disk when the power failed.
    func losePower(mode: Mode, tearAt fraction: Double = 0.5) throws {
        let (files, directories) = state.withLock { ($0.files, $0.directories) }
        let manager = FileManager.default
        var lastWriter: String?
        for (path, file) in files where !file.pending.isEmpty { lastWriter = path }
        for (path, file) in files {
            guard file.entryDurable else {
                try? manager.removeItem(atPath: path)
                continue
            }
            var bytes = file.durable ?? []
            if mode == .tearLastWrite {
                if let length = file.truncatedTo { bytes = Array(bytes.prefix(Int(length))) }
                for (index, write) in file.pending.enumerated() {
                    var data = write.bytes
                    if path == lastWriter && index == file.pending.count - 1 {
                        data = Array(data.prefix(Int(Double(data.count) * fraction)))
                    }
                    let end = Int(write.offset) + data.count
                    if bytes.count < end { bytes += [UInt8](repeating: 0, count: end - bytes.count) }
                    bytes.replaceSubrange(Int(write.offset)..<end, with: data)
                }
            }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }
        for (path, durable) in directories where !durable {
            try? manager.removeItem(atPath: path)
        }
    }

    func open(_ path: String, flags: Int32, mode: mode_t) -> Result<Int32, Errno> {
        let changes = flags & O_CREAT != 0
        if changes && !alive() { return .failure(.ioError) }
        let existed = FileManager.default.fileExists(atPath: path)
        let result = real.open(path, flags: flags, mode: mode)
        if case .success(let fd) = result {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            let known = state.withLock { state in
                state.descriptors[fd] = path
                return isDirectory.boolValue || state.files[path] != nil
            }
            guard !known else { return result }
            // The file is read outside the lock: the store's threads open files at once, and
            // holding the lock across a read made them queue on it.
            let durable = existed ? FileManager.default.contents(atPath: path).map { [UInt8]($0) } : nil
            state.withLock { state in
                if state.files[path] == nil { state.files[path] = File(durable: durable, entryDurable: existed) }
            }
        }
        return result
    }

    func close(_ fd: Int32) -> Result<Void, Errno> {
        state.withLock { _ = $0.descriptors.removeValue(forKey: fd) }
        return real.close(fd)
    }

    func pread(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) -> Result<Int, Errno> {
        real.pread(fd, into: buffer, at: offset)
    }

    func pwrite(_ fd: Int32, from buffer: UnsafeRawBufferPointer, at offset: Int64) -> Result<Int, Errno> {
        guard alive() else { return .failure(.ioError) }
        let result = real.pwrite(fd, from: buffer, at: offset)
        if case .success(let count) = result {
            state.withLock { state in
                guard let path = state.descriptors[fd] else { return }
                state.files[path]?.pending.append((offset, [UInt8](buffer.prefix(count))))
            }
        }
        return result
    }

    func fdatasync(_ fd: Int32) -> Result<Void, Errno> { sync(fd) }
    func fsync(_ fd: Int32) -> Result<Void, Errno> { sync(fd) }

    private func sync(_ fd: Int32) -> Result<Void, Errno> {
        guard alive() else { return .failure(.ioError) }
        let result = real.fsync(fd)
        guard case .success = result else { return result }
        state.withLock { state in
            guard let path = state.descriptors[fd] else { return }
            if var file = state.files[path] {
                file.durable = FileManager.default.contents(atPath: path).map { [UInt8]($0) } ?? []
                file.pending = []
                file.truncatedTo = nil
                state.files[path] = file
            } else {
                // A directory: the entries in it are durable now.
                let prefix = path.hasSuffix("/") ? path : path + "/"
                for (name, file) in state.files
                where name.hasPrefix(prefix) && !name.dropFirst(prefix.count).contains("/") {
                    var updated = file
                    updated.entryDurable = true
                    state.files[name] = updated
                }
                for (name, _) in state.directories
                where name.hasPrefix(prefix) && !name.dropFirst(prefix.count).contains("/") {
                    state.directories[name] = true
                }
            }
        }
        return result
    }

    func ftruncate(_ fd: Int32, length: Int64) -> Result<Void, Errno> {
        guard alive() else { return .failure(.ioError) }
        let result = real.ftruncate(fd, length: length)
        if case .success = result {
            state.withLock { state in
                guard let path = state.descriptors[fd] else { return }
                guard var file = state.files[path] else { return }
                file.truncatedTo = min(file.truncatedTo ?? length, length)
                file.pending = file.pending.filter { $0.offset < length }
                state.files[path] = file
            }
        }
        return result
    }

    func flock(_ fd: Int32, operation: Int32) -> Result<Void, Errno> { real.flock(fd, operation: operation) }
    func fileSize(_ fd: Int32) -> Result<Int64, Errno> { real.fileSize(fd) }

    func makeDirectory(_ path: String) -> Result<Void, Errno> {
        guard alive() else { return .failure(.ioError) }
        let result = real.makeDirectory(path)
        if case .success = result { state.withLock { $0.directories[path] = false } }
        return result
    }

    func listDirectory(_ path: String) -> Result<[String], Errno> {
        if isDead { return .failure(.ioError) }
        return real.listDirectory(path)
    }

    func unlink(_ path: String) -> Result<Void, Errno> {
        guard alive() else { return .failure(.ioError) }
        let result = real.unlink(path)
        if case .success = result { state.withLock { _ = $0.files.removeValue(forKey: path) } }
        return result
    }

    func removeDirectory(_ path: String) -> Result<Void, Errno> {
        guard alive() else { return .failure(.ioError) }
        return real.removeDirectory(path)
    }

    /// Renames move what is tracked under the old name; the rename itself is taken as durable
    /// (the workloads under power loss do not rename).
    func rename(_ source: String, to destination: String) -> Result<Void, Errno> {
        guard alive() else { return .failure(.ioError) }
        let result = real.rename(source, to: destination)
        if case .success = result {
            state.withLock { state in
                // Tracked files move with their directory.
                for (path, file) in state.files where path == source || path.hasPrefix(source + "/") {
                    state.files.removeValue(forKey: path)
                    state.files[destination + path.dropFirst(source.count)] = file
                }
                if let durable = state.directories.removeValue(forKey: source) {
                    state.directories[destination] = durable
                }
            }
        }
        return result
    }
}
