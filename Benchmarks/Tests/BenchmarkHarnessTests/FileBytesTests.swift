import BenchmarkHarness
import Foundation
import Testing

struct FileBytesTests {
    @Test func directorySizesAddUpEachKindByThePathInTheDirectory() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("file-bytes-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let nested = directory.appendingPathComponent("checkpoints", isDirectory: true)
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        let files: [(String, Int)] = [("1.log", 100), ("2.log", 20), ("checkpoints/2.checkpoint", 7), ("LOCK", 0)]
        for (path, count) in files {
            try Data(repeating: 1, count: count).write(to: directory.appendingPathComponent(path))
        }
        var seen: [String] = []
        let sizes = FileBytes.directorySizes(directory) { path in
            seen.append(path)
            return path.hasPrefix("checkpoints/") ? "checkpoints" : path.hasSuffix(".log") ? "segments" : "other"
        }
        #expect(sizes == ["segments": 120, "checkpoints": 7, "other": 0])
        #expect(seen.sorted() == ["1.log", "2.log", "LOCK", "checkpoints/2.checkpoint"])
        #expect(FileBytes.directorySize(directory) == 127)
    }

    @Test func aMissingDirectoryHasNoFiles() {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID().uuidString)")
        #expect(FileBytes.directorySizes(missing) { _ in "any" }.isEmpty)
    }
}
