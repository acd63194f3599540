import Foundation

/// Damage done to files on purpose, byte by byte.
enum ByteSurgery {
    static func bytes(of path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// Flips every bit of the byte at `offset`.
    static func flipByte(in path: String, at offset: Int) throws {
        var content = try bytes(of: path)
        content[offset] ^= 0xFF
        try write(content, to: path)
    }

    /// Cuts the file to `length` bytes.
    static func truncate(_ path: String, to length: Int) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(length))
        try handle.close()
    }

    static func size(of path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.size] as? NSNumber)?.intValue ?? -1
    }

    /// Overwrites bytes at `offset` with `replacement`.
    static func overwrite(_ path: String, at offset: Int, with replacement: [UInt8]) throws {
        var content = try bytes(of: path)
        content.replaceSubrange(offset..<(offset + replacement.count), with: replacement)
        try write(content, to: path)
    }
}
