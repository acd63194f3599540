import LogbookMacros
import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// Every macro of the Logbook plug-in, by the name the `Logbook` module declares it under.
let logbookMacros: [String: MacroSpec] = [
    "Model": MacroSpec(type: ModelMacro.self, conformances: ["PersistentModel"]),
    "_LogbookPersistedProperty": MacroSpec(type: PersistedPropertyMacro.self),
    "Attribute": MacroSpec(type: AttributeMacro.self),
    "Relationship": MacroSpec(type: RelationshipMacro.self),
    "Transient": MacroSpec(type: TransientMacro.self),
    "ModelActor": MacroSpec(type: ModelActorMacro.self, conformances: ["ModelActor"]),
    "Unique": MacroSpec(type: UniqueMacro.self),
    "Index": MacroSpec(type: IndexMacro.self),
]

/// Expands the Logbook macros in `source` and records an issue for every difference from the
/// expected expansion, diagnostics and fixed source.
func assertExpansion(
    _ source: String,
    expandedSource: String,
    diagnostics: [DiagnosticSpec] = [],
    macros: [String: MacroSpec] = logbookMacros,
    applyFixIts: [String]? = nil,
    fixedSource: String? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    assertMacroExpansion(
        source,
        expandedSource: expandedSource,
        diagnostics: diagnostics,
        macroSpecs: macros,
        applyFixIts: applyFixIts,
        fixedSource: fixedSource,
        indentationWidth: .spaces(4),
        failureHandler: { failure in
            Issue.record(
                Comment(rawValue: failure.message),
                sourceLocation: SourceLocation(
                    fileID: failure.location.fileID,
                    filePath: failure.location.filePath,
                    line: failure.location.line,
                    column: failure.location.column
                )
            )
        },
        fileID: fileID,
        filePath: filePath,
        line: line,
        column: column
    )
}

/// A diagnostic the Logbook macros emit, with its stable ID.
func logbookDiagnostic(
    _ id: String,
    _ message: String,
    line: Int,
    column: Int,
    fixIts: [String] = [],
    originatorFileID: StaticString = #fileID,
    originatorFile: StaticString = #filePath,
    originatorLine: UInt = #line,
    originatorColumn: UInt = #column
) -> DiagnosticSpec {
    DiagnosticSpec(
        id: MessageID(domain: "Logbook", id: id),
        message: message,
        line: line,
        column: column,
        fixIts: fixIts.map { FixItSpec(message: $0) },
        originatorFileID: originatorFileID,
        originatorFile: originatorFile,
        originatorLine: originatorLine,
        originatorColumn: originatorColumn
    )
}
