import Foundation

@testable import Logbook

// Writes the seed corpora of the fuzz targets from the golden stores:
//
//     extract-seeds FIXTURES CORPUS
//
// CORPUS/BatchReader: every segment file, as it is (mode byte 0) and with checksums fixed up
//   (mode byte 1, a no-op on sound segments, which lets mutations keep valid checksums).
// CORPUS/EventDecoder: every event alone (mode 0) and every batch's decompressed payload (mode 1).
// CORPUS/SchemaDecoder: every schema event (mode 0) and its JSON description alone (mode 1).

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: extract-seeds FIXTURES CORPUS\n".utf8))
    exit(2)
}
let fixtures = arguments[1]
let corpus = arguments[2]
let manager = FileManager.default

func write(_ target: String, _ name: String, mode: UInt8, _ bytes: some Sequence<UInt8>) {
    let directory = corpus + "/" + target
    try? manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
    guard manager.createFile(atPath: directory + "/" + name, contents: Data([mode] + Array(bytes))) else {
        fatalError("cannot write \(directory)/\(name)")
    }
}

var counts: [String: Int] = [:]
let stores = ((try? manager.contentsOfDirectory(atPath: fixtures)) ?? []).sorted()
for store in stores {
    let directory = fixtures + "/" + store
    var isDirectory: ObjCBool = false
    guard manager.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
    let segments = try SegmentDirectory.segments(in: directory, syscalls: PosixSyscalls())
    for segment in segments {
        guard let bytes = manager.contents(atPath: segment.path) else { fatalError("cannot read \(segment.path)") }
        let name = "\(store)-\((segment.path as NSString).lastPathComponent)"
        write("BatchReader", name + "-raw", mode: 0, bytes)
        write("BatchReader", name + "-fixed", mode: 1, bytes)
        counts["BatchReader", default: 0] += 2
    }
    var cursor = LogReader(directory: directory).batches()
    while let batch = try cursor.next() {
        let batchName = "\(store)-batch-\(batch.firstSequence)"
        write("EventDecoder", batchName, mode: 1, batch.payload)
        counts["EventDecoder", default: 0] += 1
        for (sequence, event) in batch.events {
            write("EventDecoder", "\(store)-event-\(sequence)", mode: 0, event)
            counts["EventDecoder", default: 0] += 1
            guard event.first == EventCodec.Kind.schema.rawValue,
                case .schema(let record) = try? EventCodec.decode(event).event
            else { continue }
            write("SchemaDecoder", "\(store)-schema-\(sequence)", mode: 0, event)
            write("SchemaDecoder", "\(store)-schema-\(sequence)-json", mode: 1, EventCodec.schemaJSON(record.schema))
            counts["SchemaDecoder", default: 0] += 2
        }
    }
}
for (target, count) in counts.sorted(by: { $0.key < $1.key }) {
    print("\(target): \(count) seeds")
}
