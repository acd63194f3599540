import ArgumentParser
import BenchmarkHarness
import Foundation
import SampleTripsData
import Sides

/// The hidden subcommand a child process runs: one workload, the V1 store, or the reference
/// figures. It prints one ``ChildResponse`` line on stdout; progress goes to stderr.
struct ChildCommand: ParsableCommand {
    static let name = "_child"

    static let configuration = CommandConfiguration(
        commandName: name,
        abstract: "Runs one task in a fresh process (used by `compare run`).",
        shouldDisplay: false
    )

    @Option(help: "The task, as JSON.")
    var request: String

    func run() throws {
        let request = try JSONDecoder().decode(ChildRequest.self, from: Data(request.utf8))
        let dataSet = SampleTripsDataSet(tripCount: request.tripCount, seed: request.seed)
        var response = ChildResponse()
        switch request.task {
        case .workload:
            response.measurements = try runWorkload(request, dataSet: dataSet)
        case .prepareV1:
            try workloads(request).w4PrepareV1(
                dataSet.tripsV1(),
                tripsPerSave: SampleTripsDataSet.tripsPerSave,
                store: try store(request)
            )
        case .prepareEdits:
            response.measurements = [
                try workloads(request).w8PrepareEdits(
                    store: try store(request),
                    rounds: WorkloadID.w8EditRounds,
                    variant: request.variant
                )
            ]
        case .reference:
            try measureReference(request, dataSet: dataSet, into: &response)
        }
        response.peakResidentBytes = ProcessMemory.peakResidentBytes()
        let line = String(decoding: try JSONEncoder().encode(response), as: UTF8.self)
        print(ChildResponse.marker + line)
    }

    func runWorkload(_ request: ChildRequest, dataSet: SampleTripsDataSet) throws -> [WorkloadResult] {
        guard let workload = request.workload else { throw ValidationError("a workload task names its workload") }
        let workloads = try workloads(request)
        let store = try store(request)
        switch workload {
        case .w1DurableAppend:
            let trips = dataSet.trips()
            return try workloads.w1DurableAppend(trips, tripsPerSave: SampleTripsDataSet.tripsPerSave, store: store)
        case .w2OpenAndLoad:
            return [try workloads.w2OpenAndLoad(store: store, variant: request.variant)]
        case .w3PointLookups:
            return try workloads.w3PointLookups(store: store, names: dataSet.lookupNames(count: request.lookups))
        case .w3PredicateFetch:
            let destinations = dataSet.queryDestinations(count: request.queries)
            return [try workloads.w3PredicateFetch(store: store, destinations: destinations)]
        case .w4OpenThroughMigration:
            return try workloads.w4OpenThroughMigration(store: store)
        case .w5DumpNDJSON:
            guard let output = request.output else { throw ValidationError("W5 needs an output path") }
            return [try workloads.w5DumpNDJSON(store: store, output: URL(fileURLWithPath: output))]
        case .w7FirstScreen:
            return [try workloads.w7FirstScreen(store: store)]
        case .w8FirstScreenAfterEdits:
            var result = try workloads.w7FirstScreen(store: store)
            result.variant = request.variant
            return [result]
        case .w9DeleteHistory:
            return [try workloads.w9DeleteHistory(store: store)]
        }
    }

    func measureReference(
        _ request: ChildRequest,
        dataSet: SampleTripsDataSet,
        into response: inout ChildResponse
    )
        throws
    {
        response.lz4.append(
            try LZ4Reference.generatedPayload(dataSet, tripsPerBlock: SampleTripsDataSet.tripsPerSave)
        )
        for store in request.logbookStores {
            if let figure = try LZ4Reference.storePayload(URL(fileURLWithPath: store)) {
                response.lz4.append(figure)
            } else {
                response.notes.append("\(store) has no LZ4-compressed batch to decompress")
            }
        }
        for directory in request.readDirectories {
            response.sequentialReads.append(try SequentialRead.measure(directory: URL(fileURLWithPath: directory)))
        }
        response.memoryLatency = MemoryLatency.measure()
    }

    func workloads(_ request: ChildRequest) throws -> any Workloads {
        guard let side = request.side, let workloads = SideRegistry.workloads(for: side) else {
            throw ValidationError("no implementation for side \(request.side?.rawValue ?? "none")")
        }
        return workloads
    }

    func store(_ request: ChildRequest) throws -> URL {
        guard let store = request.store else { throw ValidationError("the task needs a store directory") }
        return URL(fileURLWithPath: store, isDirectory: true)
    }
}
