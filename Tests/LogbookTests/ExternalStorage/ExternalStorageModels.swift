import Foundation
import Logbook

/// A photo whose bytes are kept beside the log once they are large, and a thumbnail that always
/// stays in the log.
@Model
final class Snapshot {
    var caption: String
    @Attribute(.externalStorage) var image: Data?
    var thumbnail: Data?

    init(caption: String, image: Data?, thumbnail: Data? = nil) {
        self.caption = caption
        self.image = image
        self.thumbnail = thumbnail
    }
}

/// Version 1 of an album: the picture's bytes under the name `bytes`.
enum AlbumV1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Picture.self] }

    @Model
    final class Picture {
        var title: String
        @Attribute(.externalStorage) var bytes: Data

        init(title: String, bytes: Data) {
            self.title = title
            self.bytes = bytes
        }
    }
}

/// Version 2: `bytes` renamed `image`, and a rating added with a default.
enum AlbumV2: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Picture.self] }

    @Model
    final class Picture {
        var title: String
        @Attribute(.externalStorage, originalName: "bytes") var image: Data
        var rating: Int = 0

        init(title: String, image: Data) {
            self.title = title
            self.image = image
        }
    }
}

enum AlbumPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [AlbumV1.self, AlbumV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: AlbumV1.self, toVersion: AlbumV2.self)] }
}

/// `count` bytes that differ with `seed`, and do not compress to nothing.
func externalTestBytes(_ count: Int, seed: UInt64) -> Data {
    var state = seed &+ 0x9E37_79B9_7F4A_7C15
    var bytes = [UInt8](repeating: 0, count: count)
    for index in bytes.indices {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        bytes[index] = UInt8(truncatingIfNeeded: state >> 56)
    }
    return Data(bytes)
}

/// The value files under a store's `external` directory, by path relative to the store.
func externalFiles(in store: URL) -> [String] {
    let root = store.appendingPathComponent("external")
    guard let enumerator = FileManager.default.enumerator(atPath: root.path) else { return [] }
    var files: [String] = []
    while let path = enumerator.nextObject() as? String {
        var isDirectory: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isDirectory)
        if !isDirectory.boolValue { files.append("external/" + path) }
    }
    return files.sorted()
}

/// The bytes of every segment file of a store, one after another.
func segmentBytes(of store: URL) throws -> Data {
    let names = try FileManager.default.contentsOfDirectory(atPath: store.path).filter { $0.hasSuffix(".log") }.sorted()
    var bytes = Data()
    for name in names { bytes += try Data(contentsOf: store.appendingPathComponent(name)) }
    return bytes
}

/// An album whose photos keep their bytes beside the log: a relationship to objects whose values
/// are read from files when the relationship is loaded.
@Model
final class PhotoAlbum {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \AlbumPhoto.album) var photos: [AlbumPhoto] = []

    init(name: String) {
        self.name = name
    }
}

@Model
final class AlbumPhoto {
    var caption: String
    @Attribute(.externalStorage) var image: Data
    var album: PhotoAlbum?

    init(caption: String, image: Data) {
        self.caption = caption
        self.image = image
    }
}
