import Foundation
import Testing

@testable import Logbook

/// `Schema.AttributeType` decodes, with its own decoder, exactly what its synthesized encoder
/// writes: the schemas recorded in every store's log are in that form.
struct AttributeTypeCodingTests {
    static let every: [Schema.AttributeType] = [
        .bool, .int, .int8, .int16, .int32, .int64, .uint, .uint8, .uint16, .uint32, .uint64, .double, .float,
        .decimal, .string, .date, .uuid, .url, .data,
        .optional(.date), .optional(.optional(.string)), .array(.int), .array(.optional(.uuid)),
        .rawRepresentable(typeName: "Kind", rawType: .string),
        .optional(.rawRepresentable(typeName: "Level", rawType: .int)),
        .composite(typeName: "Address"), .array(.composite(typeName: "Stop")),
        .transformable(transformerName: "ColorTransformer"),
    ]

    @Test(arguments: every) func everyTypeReadsBackAsItWasWritten(_ type: Schema.AttributeType) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = try encoder.encode(type)
        #expect(try JSONDecoder().decode(Schema.AttributeType.self, from: json) == type)
    }

    @Test func theSynthesizedFormIsPinned() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let pinned: [(Schema.AttributeType, String)] = [
            (.date, #"{"date":{}}"#),
            (.optional(.string), #"{"optional":{"_0":{"string":{}}}}"#),
            (
                .rawRepresentable(typeName: "Kind", rawType: .int),
                #"{"rawRepresentable":{"rawType":{"int":{}},"typeName":"Kind"}}"#
            ),
            (.transformable(transformerName: "T"), #"{"transformable":{"transformerName":"T"}}"#),
        ]
        for (type, json) in pinned {
            #expect(String(decoding: try encoder.encode(type), as: UTF8.self) == json)
            #expect(try JSONDecoder().decode(Schema.AttributeType.self, from: Data(json.utf8)) == type)
        }
    }

    @Test(arguments: [
        #"{}"#, #"{"int":{},"date":{}}"#, #"{"integer":{}}"#, #"{"optional":{}}"#, #"{"composite":{"name":"X"}}"#,
        #""int""#,
    ])
    func malformedTypesAreRefused(_ json: String) {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Schema.AttributeType.self, from: Data(json.utf8))
        }
    }
}
