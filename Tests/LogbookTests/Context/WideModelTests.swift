import Foundation
import Testing

@testable import Logbook

// A model with more persisted properties than fit in one word of a model's change and fault
// bits: its last attributes and its relationships have indexes of 64 and more.

/// Models whose properties number more than 64.
enum WideSchema {
    @Model
    final class Wide {
        var name: String
        var a0: Int = 0
        var a1: Int = 1
        var a2: Int = 2
        var a3: Int = 3
        var a4: Int = 4
        var a5: Int = 5
        var a6: Int = 6
        var a7: Int = 7
        var a8: Int = 8
        var a9: Int = 9
        var a10: Int = 10
        var a11: Int = 11
        var a12: Int = 12
        var a13: Int = 13
        var a14: Int = 14
        var a15: Int = 15
        var a16: Int = 16
        var a17: Int = 17
        var a18: Int = 18
        var a19: Int = 19
        var a20: Int = 20
        var a21: Int = 21
        var a22: Int = 22
        var a23: Int = 23
        var a24: Int = 24
        var a25: Int = 25
        var a26: Int = 26
        var a27: Int = 27
        var a28: Int = 28
        var a29: Int = 29
        var a30: Int = 30
        var a31: Int = 31
        var a32: Int = 32
        var a33: Int = 33
        var a34: Int = 34
        var a35: Int = 35
        var a36: Int = 36
        var a37: Int = 37
        var a38: Int = 38
        var a39: Int = 39
        var a40: Int = 40
        var a41: Int = 41
        var a42: Int = 42
        var a43: Int = 43
        var a44: Int = 44
        var a45: Int = 45
        var a46: Int = 46
        var a47: Int = 47
        var a48: Int = 48
        var a49: Int = 49
        var a50: Int = 50
        var a51: Int = 51
        var a52: Int = 52
        var a53: Int = 53
        var a54: Int = 54
        var a55: Int = 55
        var a56: Int = 56
        var a57: Int = 57
        var a58: Int = 58
        var a59: Int = 59
        var a60: Int = 60
        var a61: Int = 61
        var a62: Int = 62
        var a63: Int = 63
        var a64: Int = 64
        var a65: Int = 65
        @Relationship(deleteRule: .cascade, inverse: \WideSchema.Part.owner) var parts: [Part] = []
        var partner: Part?

        init(name: String) {
            self.name = name
        }
    }

    @Model
    final class Part {
        var label: String
        var owner: Wide?

        init(label: String) {
            self.label = label
        }
    }
}

struct WideModelTests {
    private func container(_ kind: StoreKind, _ directory: TemporaryDirectory) throws -> ModelContainer {
        let configuration =
            kind == .memory
            ? ModelConfiguration(isStoredInMemoryOnly: true)
            : ModelConfiguration(url: URL(fileURLWithPath: directory.child("wide.store")), durability: .relaxed)
        return try ModelContainer(for: WideSchema.Wide.self, configurations: configuration)
    }

    /// Saves a wide model, changes past its first 64 properties, saves and rolls back.
    private func write(_ context: ModelContext, _ kind: StoreKind) throws {
        let propertyCount = WideSchema.Wide._$binding.properties.count
        let wide = WideSchema.Wide(name: "first")
        wide.parts = [WideSchema.Part(label: "one"), WideSchema.Part(label: "two")]
        context.insert(wide)
        try context.save()

        // A change to the last attribute alone is a change, and is saved.
        #expect(!wide.hasChanges, "\(kind)")
        wide.a65 = 6_500
        #expect(wide.hasChanges, "\(kind): a change at index 65 counts")
        try context.save()
        #expect(!wide.hasChanges, "\(kind): the save clears it")

        // So is a change to a relationship past the first word; a rollback undoes one.
        let partner = WideSchema.Part(label: "partner")
        wide.partner = partner
        #expect(wide.hasChanges, "\(kind): a relationship at index \(propertyCount - 1) counts")
        try context.save()
        wide.a64 = -1
        context.rollback()
        #expect(wide.a64 == 64, "\(kind): the rollback restores the saved value")
        #expect(!wide.hasChanges, "\(kind)")
    }

    @Test func propertiesBeyondTheSixtyFourthAreTrackedSavedAndLoaded() throws {
        let propertyCount = WideSchema.Wide._$binding.properties.count
        #expect(propertyCount > 64, "the model must reach past the first word")
        for kind in StoreKind.allCases {
            let directory = TemporaryDirectory("wide")
            // In memory, the same container again; on disk, a new one once the first is gone.
            var kept: ModelContainer?
            do {
                let first = try container(kind, directory)
                try write(ModelContext(first), kind)
                if kind == .memory { kept = first }
            }
            let context = ModelContext(try kept ?? container(kind, directory))
            let fetched = try #require(try context.fetch(FetchDescriptor<WideSchema.Wide>()).first, "\(kind)")
            #expect(!fetched.hasChanges, "\(kind): a fetched model has no changes")
            #expect(fetched.a0 == 0 && fetched.a63 == 63 && fetched.a64 == 64, "\(kind)")
            #expect(fetched.a65 == 6_500, "\(kind)")
            // Both relationships are faults until read, then load.
            #expect(fetched.partner?.label == "partner", "\(kind)")
            #expect(fetched.parts.map(\.label).sorted() == ["one", "two"], "\(kind)")
            #expect(fetched.parts.allSatisfy { $0.owner === fetched }, "\(kind): the inverse is loaded too")
        }
    }
}
