import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// `@Relationship` alone: it generates nothing and diagnoses what syntax can tell.
private var relationshipOnly: [String: MacroSpec] {
    logbookMacros.filter { $0.key == "Relationship" || $0.key == "Attribute" }
}

struct RelationshipMacroTests {
    @Test func expandsToNothingInBothSpellings() {
        assertExpansion(
            #"""
            final class Trip {
                @Relationship(.cascade)
                var bucketList: [BucketListItem]? = []
                @Relationship(deleteRule: .cascade, maximumModelCount: 1, inverse: \LivingAccommodation.trip)
                var livingAccommodation: LivingAccommodation?
            }
            """#,
            expandedSource: #"""
                final class Trip {
                    var bucketList: [BucketListItem]? = []
                    var livingAccommodation: LivingAccommodation?
                }
                """#,
            macros: relationshipOnly
        )
    }

    @Test(arguments: ["[String]", "String?", "Int", "[Date]?", "[String: Trip]", "(Trip, Trip)"])
    func rejectsAPlainValueType(type: String) {
        assertExpansion(
            """
            final class Trip {
                @Relationship(.cascade) var value: \(type)
            }
            """,
            expandedSource: """
                final class Trip {
                    var value: \(type)
                }
                """,
            diagnostics: [
                logbookDiagnostic(
                    "relationshipRequiresModel",
                    "'@Relationship' cannot be applied to property 'value' of type '\(type)'; "
                        + "a relationship refers to '@Model' classes",
                    line: 2,
                    column: 40
                )
            ],
            macros: relationshipOnly
        )
    }

    @Test(arguments: ["[Item]", "[Item]?"])
    func rejectsUniqueOnAToManyRelationship(type: String) {
        assertExpansion(
            """
            final class Trip {
                @Relationship(.unique) var items: \(type)
            }
            """,
            expandedSource: """
                final class Trip {
                    var items: \(type)
                }
                """,
            diagnostics: [
                logbookDiagnostic(
                    "uniqueToManyRelationship",
                    "'.unique' is not supported on to-many relationship 'items'; only a to-one relationship can be unique",
                    line: 2,
                    column: 19
                )
            ],
            macros: relationshipOnly
        )
    }

    @Test func acceptsUniqueOnAToOneRelationship() {
        assertExpansion(
            #"""
            final class Passport {
                @Relationship(.unique) var holder: Person?
            }
            """#,
            expandedSource: #"""
                final class Passport {
                    var holder: Person?
                }
                """#,
            macros: relationshipOnly
        )
    }

    @Test func rejectsAPropertyThatIsAlsoAnAttribute() {
        assertExpansion(
            #"""
            final class Trip {
                @Attribute(originalName: "stay") @Relationship var accommodation: LivingAccommodation?
            }
            """#,
            expandedSource: #"""
                final class Trip {
                    var accommodation: LivingAccommodation?
                }
                """#,
            diagnostics: [
                logbookDiagnostic(
                    "attributeAndRelationship",
                    "Property 'accommodation' cannot be both an '@Attribute' and a '@Relationship'",
                    line: 2,
                    column: 38
                )
            ],
            macros: relationshipOnly
        )
    }

    @Test func rejectsAComputedProperty() {
        assertExpansion(
            #"""
            final class Trip {
                @Relationship var first: BucketListItem? { nil }
            }
            """#,
            expandedSource: #"""
                final class Trip {
                    var first: BucketListItem? { nil }
                }
                """#,
            diagnostics: [
                logbookDiagnostic(
                    "requiresStoredProperty",
                    "'@Relationship' can only be applied to a stored instance property; 'first' is not one",
                    line: 2,
                    column: 5
                )
            ],
            macros: relationshipOnly
        )
    }
}
