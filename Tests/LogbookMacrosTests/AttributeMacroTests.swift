import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// `@Attribute` alone: it generates nothing and diagnoses what syntax can tell.
private var attributeOnly: [String: MacroSpec] {
    logbookMacros.filter { $0.key == "Attribute" }
}

struct AttributeMacroTests {
    @Test func expandsToNothing() {
        assertExpansion(
            #"""
            final class Trip {
                @Attribute(.unique, originalName: "title") var name: String
                @Attribute(.externalStorage) var photo: Data?
            }
            """#,
            expandedSource: #"""
                final class Trip {
                    var name: String
                    var photo: Data?
                }
                """#,
            macros: attributeOnly
        )
    }

    @Test(arguments: ["Date", "Data", "URL", "Bool", "[String]", "[String: Int]", "Date?", "(Int, Int)"])
    func rejectsUniqueOnATypeAUniqueIndexCannotHold(type: String) {
        assertExpansion(
            """
            final class Trip {
                @Attribute(.unique) var value: \(type)
            }
            """,
            expandedSource: """
                final class Trip {
                    var value: \(type)
                }
                """,
            diagnostics: [
                logbookDiagnostic(
                    "uniqueUnsupportedType",
                    "'.unique' is not supported on property 'value' of type '\(type)'; "
                        + "a unique attribute must be numeric, String or UUID",
                    line: 2,
                    column: 16
                )
            ],
            macros: attributeOnly
        )
    }

    @Test(arguments: ["Int", "Int64?", "String", "UUID", "Decimal", "Double", "Point"])
    func leavesUniqueOnOtherTypesToTheTypeChecker(type: String) {
        assertExpansion(
            """
            final class Trip {
                @Attribute(.unique) var value: \(type)
            }
            """,
            expandedSource: """
                final class Trip {
                    var value: \(type)
                }
                """,
            macros: attributeOnly
        )
    }

    @Test func rejectsAComputedProperty() {
        assertExpansion(
            #"""
            final class Trip {
                @Attribute(.unique) var total: Int { 1 }
            }
            """#,
            expandedSource: #"""
                final class Trip {
                    var total: Int { 1 }
                }
                """#,
            diagnostics: [
                logbookDiagnostic(
                    "requiresStoredProperty",
                    "'@Attribute' can only be applied to a stored instance property; 'total' is not one",
                    line: 2,
                    column: 5
                )
            ],
            macros: attributeOnly
        )
    }

    @Test func rejectsAStaticProperty() {
        assertExpansion(
            #"""
            final class Trip {
                @Attribute static var count: Int = 0
            }
            """#,
            expandedSource: #"""
                final class Trip {
                    static var count: Int = 0
                }
                """#,
            diagnostics: [
                logbookDiagnostic(
                    "requiresStoredProperty",
                    "'@Attribute' can only be applied to a stored instance property; 'count' is not one",
                    line: 2,
                    column: 5
                )
            ],
            macros: attributeOnly
        )
    }
}
