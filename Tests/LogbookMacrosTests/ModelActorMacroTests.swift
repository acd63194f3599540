import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

struct ModelActorMacroTests {
    @Test func addsTheExecutorTheContainerAndTheInitializerAndConformsTheActor() {
        assertExpansion(
            """
            @ModelActor
            actor TripImporter {
                func importTrips() throws {
                    try modelContext.save()
                }
            }
            """,
            expandedSource: """
                actor TripImporter {
                    func importTrips() throws {
                        try modelContext.save()
                    }

                    nonisolated let modelExecutor: any Logbook.ModelExecutor

                    nonisolated let modelContainer: Logbook.ModelContainer

                    init(modelContainer: Logbook.ModelContainer) {
                        let modelContext = Logbook.ModelContext(modelContainer)
                        self.modelExecutor = Logbook.DefaultSerialModelExecutor(modelContext: modelContext)
                        self.modelContainer = modelContainer
                    }
                }

                extension TripImporter: Logbook.ModelActor {
                }
                """
        )
    }

    @Test(arguments: ["public", "package"])
    func theMembersTakeThePublicOrPackageAccessOfTheActor(access: String) {
        assertExpansion(
            """
            @ModelActor
            \(access) actor TripImporter {
            }
            """,
            expandedSource: """
                \(access) actor TripImporter {

                    \(access) nonisolated let modelExecutor: any Logbook.ModelExecutor

                    \(access) nonisolated let modelContainer: Logbook.ModelContainer

                    \(access) init(modelContainer: Logbook.ModelContainer) {
                        let modelContext = Logbook.ModelContext(modelContainer)
                        self.modelExecutor = Logbook.DefaultSerialModelExecutor(modelContext: modelContext)
                        self.modelContainer = modelContainer
                    }
                }

                extension TripImporter: Logbook.ModelActor {
                }
                """
        )
    }

    @Test(arguments: [("class", "final class"), ("struct", "struct"), ("enum", "enum")])
    func anythingButAnActorIsAnErrorOnItsKeyword(keyword: String, declaration: String) {
        let column = declaration.count - keyword.count + 1
        assertExpansion(
            """
            @ModelActor
            \(declaration) TripImporter {
            }
            """,
            expandedSource: """
                \(declaration) TripImporter {
                }
                """,
            diagnostics: [
                logbookDiagnostic(
                    "modelActorRequiresActor",
                    "'@ModelActor' cannot be applied to \(keyword) 'TripImporter'; apply it to an actor",
                    line: 2,
                    column: column
                )
            ]
        )
    }
}
