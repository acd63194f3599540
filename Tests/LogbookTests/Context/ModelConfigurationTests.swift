import Foundation
import Logbook
import Testing

/// A model with the attribute options that only matter on Apple's platforms.
@Model
final class Passport {
    @Attribute(.allowsCloudEncryption) var number: String
    @Attribute(.spotlight) var holder: String
    @Attribute(.spotlight, .allowsCloudEncryption) var country: String?

    init(number: String, holder: String) {
        self.number = number
        self.holder = holder
    }
}

/// SwiftData's spellings of a configuration, and options that have no effect on Linux.
struct ModelConfigurationTests {
    @Test func swiftDataSpellingNamesAStoreOnDisk() throws {
        let directory = TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.child("trips.store"))
        let configuration = ModelConfiguration("Trips", schema: Schema([Passport.self]), url: url)
        #expect(configuration.name == "Trips")
        #expect(configuration.schema == Schema([Passport.self]))
        #expect(configuration.url == url)
        #expect(configuration.allowsSave)
        #expect(!configuration.isStoredInMemoryOnly)
        do {
            let context = ModelContext(try ModelContainer(for: Passport.self, configurations: configuration))
            context.insert(Passport(number: "X1", holder: "Ada"))
            try context.save()
        }
        let readOnly = ModelConfiguration(url: url, allowsSave: false)
        #expect(readOnly.name == "default")
        #expect(readOnly.schema == nil)
        let context = ModelContext(try ModelContainer(for: Passport.self, configurations: readOnly))
        #expect(try context.fetch(FetchDescriptor<Passport>()).map(\.number) == ["X1"])
        context.insert(Passport(number: "X2", holder: "Bob"))
        let error = #expect(throws: LogbookError.self) { try context.save() }
        #expect(error?.code == .saveNotAllowed)
    }

    @Test func swiftDataSpellingNamesAStoreInMemory() throws {
        let configuration = ModelConfiguration("Scratch", isStoredInMemoryOnly: true)
        #expect(configuration.name == "Scratch")
        let context = ModelContext(try ModelContainer(for: Passport.self, configurations: configuration))
        context.insert(Passport(number: "M1", holder: "Eve"))
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Passport>()) == 1)
    }

    @Test func cloudEncryptionAndSpotlightAreRecordedAndChangeNothingElse() throws {
        let directory = TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.child("passports.store"))
        let entity = try #require(Schema([Passport.self]).entity(named: "Passport"))
        #expect(entity.attribute(named: "number")?.options == [.allowsCloudEncryption])
        #expect(entity.attribute(named: "holder")?.options == [.spotlight])
        #expect(entity.attribute(named: "country")?.options == [.allowsCloudEncryption, .spotlight])
        do {
            let context = ModelContext(
                try ModelContainer(for: Passport.self, configurations: ModelConfiguration(url: url))
            )
            let passport = Passport(number: "P9", holder: "Ada")
            passport.country = "PT"
            context.insert(passport)
            try context.save()
        }
        let context = ModelContext(try ModelContainer(for: Passport.self, configurations: ModelConfiguration(url: url)))
        let passports = try context.fetch(FetchDescriptor<Passport>())
        #expect(passports.map(\.number) == ["P9"])
        #expect(passports.map(\.holder) == ["Ada"])
        #expect(passports.map(\.country) == ["PT"])
    }
}
