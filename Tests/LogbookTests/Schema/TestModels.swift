import Foundation
import Logbook

// Models declared for the schema tests. Declaring them here also checks, at compile time,
// that `@Model` works in a module other than Logbook with only `import Logbook`.

// MARK: - Every attribute type

enum Palette: String, Codable, Hashable {
    case red
    case green
    case blue
}

/// A `RawRepresentable` enum that is not `Codable`.
enum Priority: Int, Hashable {
    case low = 1
    case high = 2
}

struct Address: Codable, Hashable {
    var street: String
    var city: String
}

/// A type that is not `Codable`, stored through a transformer.
struct Color: Hashable {
    var red: UInt8
    var green: UInt8
    var blue: UInt8
}

struct MalformedColor: Error {}

enum ColorTransformer: AttributeTransformer {
    static func encode(_ value: Color) throws -> Data {
        Data([value.red, value.green, value.blue])
    }

    static func decode(_ data: Data) throws -> Color {
        guard data.count == 3 else { throw MalformedColor() }
        let bytes = Array(data)
        return Color(red: bytes[0], green: bytes[1], blue: bytes[2])
    }
}

@Model
final class EveryType {
    var flag: Bool = false
    var int: Int = 0
    var int8: Int8 = 0
    var int16: Int16 = 0
    var int32: Int32 = 0
    var int64: Int64 = 0
    var uint: UInt = 0
    var uint8: UInt8 = 0
    var uint16: UInt16 = 0
    var uint32: UInt32 = 0
    var uint64: UInt64 = 0
    var double: Double = 0
    var float: Float = 0
    var decimal: Decimal = 0
    var string: String = ""
    var date: Date = Date(timeIntervalSinceReferenceDate: 0)
    var uuid: UUID = UUID()
    var url: URL = URL(fileURLWithPath: "/")
    var data: Data = Data()
    var optionalString: String?
    var optionalDate: Date?
    var strings: [String] = []
    var optionalInts: [Int]? = nil
    var palette: Palette = .red
    var priority: Priority = .low
    var optionalPriority: Priority?
    var priorities: [Priority] = []
    var optionalPalette: Palette?
    var palettes: [Palette] = []
    var address: Address = Address(street: "", city: "")
    var optionalAddress: Address?
    var addresses: [Address] = []
    var scores: [String: Int] = [:]
    @Attribute(.transformable(by: ColorTransformer.self)) var color: Color = Color(red: 0, green: 0, blue: 0)
    @Attribute(.transformable(by: ColorTransformer.self)) var optionalColor: Color?
}

// MARK: - Declaration order, transient properties and comments

enum DeclaredInOrder {
    @Model
    final class Note {
        var title: String = ""
        var body: String = ""
        var pinned: Bool = false
    }
}

enum DeclaredInAnotherOrder {
    @Model
    final class Note {
        var pinned: Bool = false
        var body: String = ""
        var title: String = ""
    }
}

enum DeclaredWithTransientAndComments {
    @Model
    final class Note {
        /// The note's text.
        var body: String = ""
        // Pinned notes come first.
        var pinned: Bool = false
        @Transient var renderCount: Int = 0
        var title: String = ""
    }
}

// MARK: - Transient defaults and the user's initializer

@Model
final class Viewed {
    var title: String
    @Transient var views: Int = 7

    init(title: String, views: Int) {
        self.title = title
        self.views = views
    }
}

// MARK: - Inverses

@Model
final class AmbiguousTrip {
    var first: [AmbiguousItem] = []
    var second: [AmbiguousItem] = []
}

@Model
final class AmbiguousItem {
    var trip: AmbiguousTrip?
}

@Model
final class ExplicitTrip {
    @Relationship(inverse: \ExplicitItem.trip) var first: [ExplicitItem] = []
    var second: [ExplicitItem] = []
}

@Model
final class ExplicitItem {
    var trip: ExplicitTrip?
}

@Model
final class InverseToAttributeTrip {
    @Relationship(inverse: \InverseToAttributeItem.name) var items: [InverseToAttributeItem] = []
}

@Model
final class InverseToAttributeItem {
    var name: String = ""
    var trip: InverseToAttributeTrip?
}

@Model
final class Node {
    var name: String = ""
    var parent: Node?
    @Relationship(deleteRule: .cascade) var children: [Node] = []
}

@Model
final class Owner {
    @Relationship(deleteRule: .deny, minimumModelCount: 1, maximumModelCount: 3) var pets: [Pet] = []
}

@Model
final class Pet {
    var name: String = ""
}

// MARK: - Names that resemble the generated members

/// Properties named like the members `@Model` adds, without their `_$` prefix.
@Model
final class GeneratedLookalikes {
    var storage: String = ""
    var binding: Int = 0
    var observationRegistrar: Bool = false
    var values: [String] = []
}
