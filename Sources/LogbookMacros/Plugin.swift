import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plug-in that provides Logbook's schema macros.
@main
struct LogbookMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [
        ModelMacro.self,
        PersistedPropertyMacro.self,
        AttributeMacro.self,
        RelationshipMacro.self,
        TransientMacro.self,
    ]
}
