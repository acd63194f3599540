import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// `@Transient` alone: it generates nothing; a transient property needs a default.
private var transientOnly: [String: MacroSpec] {
    logbookMacros.filter { $0.key == "Transient" || $0.key == "Attribute" }
}

struct TransientMacroTests {
    @Test func acceptsAnInitialValueOrAnOptionalsImplicitNil() {
        assertExpansion(
            #"""
            final class Trip {
                @Transient
                var tripViews: Int = 0
                @Transient var lastViewer: String?
                @Transient lazy var summary: String = "trip"
            }
            """#,
            expandedSource: #"""
                final class Trip {
                    var tripViews: Int = 0
                    var lastViewer: String?
                    lazy var summary: String = "trip"
                }
                """#,
            macros: transientOnly
        )
    }

    @Test(
        arguments: [
            ("Int", "0"), ("Double", "0"), ("String", #""""#), ("Bool", "false"), ("[Trip]", "[]"),
            ("[String: Int]", "[:]"), ("Date", ".now"), ("UUID", "UUID()"), ("Color", "<#value#>"),
        ]
    )
    func requiresADefaultAndOffersToInsertOne(type: String, value: String) {
        assertExpansion(
            """
            final class Trip {
                @Transient
                var tripViews: \(type)
            }
            """,
            expandedSource: """
                final class Trip {
                    var tripViews: \(type)
                }
                """,
            diagnostics: [
                logbookDiagnostic(
                    "transientRequiresDefault",
                    "'@Transient' property 'tripViews' needs a default value, which fetched models take",
                    line: 3,
                    column: 9,
                    fixIts: ["Insert ' = \(value)'"]
                )
            ],
            macros: transientOnly,
            applyFixIts: ["Insert ' = \(value)'"],
            fixedSource: """
                final class Trip {
                    @Transient
                    var tripViews: \(type) = \(value)
                }
                """
        )
    }

    @Test func requiresADefaultOnAnOptionalWrittenOut() {
        assertExpansion(
            #"""
            final class Trip {
                @Transient var viewer: Optional<String>
            }
            """#,
            expandedSource: #"""
                final class Trip {
                    var viewer: Optional<String>
                }
                """#,
            diagnostics: [
                logbookDiagnostic(
                    "transientRequiresDefault",
                    "'@Transient' property 'viewer' needs a default value, which fetched models take",
                    line: 2,
                    column: 20,
                    fixIts: ["Insert ' = nil'"]
                )
            ],
            macros: transientOnly,
            applyFixIts: ["Insert ' = nil'"],
            fixedSource: #"""
                final class Trip {
                    @Transient var viewer: Optional<String> = nil
                }
                """#
        )
    }

    @Test func requiresADefaultOnAnOptionalLet() {
        assertExpansion(
            #"""
            final class Trip {
                @Transient let viewer: String?
            }
            """#,
            expandedSource: #"""
                final class Trip {
                    let viewer: String?
                }
                """#,
            diagnostics: [
                logbookDiagnostic(
                    "transientRequiresDefault",
                    "'@Transient' property 'viewer' needs a default value, which fetched models take",
                    line: 2,
                    column: 20,
                    fixIts: ["Insert ' = nil'"]
                )
            ],
            macros: transientOnly,
            applyFixIts: ["Insert ' = nil'"],
            fixedSource: #"""
                final class Trip {
                    @Transient let viewer: String? = nil
                }
                """#
        )
    }

    @Test func rejectsTransientTogetherWithAttribute() {
        assertExpansion(
            #"""
            final class Trip {
                @Transient @Attribute(.unique) var code: String = ""
            }
            """#,
            expandedSource: #"""
                final class Trip {
                    var code: String = ""
                }
                """#,
            diagnostics: [
                logbookDiagnostic(
                    "transientWithSchemaMacro",
                    "'@Transient' property 'code' is not persisted, so '@Attribute' does not apply to it",
                    line: 2,
                    column: 16
                )
            ],
            macros: transientOnly
        )
    }

    @Test func rejectsAComputedProperty() {
        assertExpansion(
            #"""
            final class Trip {
                @Transient var label: String { "trip" }
            }
            """#,
            expandedSource: #"""
                final class Trip {
                    var label: String { "trip" }
                }
                """#,
            diagnostics: [
                logbookDiagnostic(
                    "requiresStoredProperty",
                    "'@Transient' can only be applied to a stored instance property; 'label' is not one",
                    line: 2,
                    column: 5
                )
            ],
            macros: transientOnly
        )
    }
}
