import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plug-in that provides Logbook's macros.
@main
struct LogbookMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [
        ModelMacro.self,
        PersistedPropertyMacro.self,
        AttributeMacro.self,
        RelationshipMacro.self,
        TransientMacro.self,
        ModelActorMacro.self,
        UniqueMacro.self,
        IndexMacro.self,
    ]
}
