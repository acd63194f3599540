import SwiftSyntax
import SwiftSyntaxMacros

/// `#Index<Trip>([\.startDate], [\.destination, \.startDate])`: indexes of a model.
///
/// Like `#Unique`, it expands to nothing: `@Model` reads its key paths and records them in the
/// model's binding. This expansion checks the context and the lists (see ``UniqueMacro``). A
/// list may be wrapped in `.binary(…)`, SwiftData's spelling of the same index; `.rtree(…)` is
/// reported as unsupported.
public enum IndexMacro: DeclarationMacro {
    public static func expansion(
        of node: some FreestandingMacroExpansionSyntax,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        checkKeyPathListMacro(node, in: context)
        return []
    }
}
