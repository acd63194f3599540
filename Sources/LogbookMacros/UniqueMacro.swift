import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `#Unique<Trip>([\.name, \.startDate], [\.code])`: unique constraints of a model.
///
/// It expands to nothing. `@Model`, which sees the class body as written, reads the key paths
/// of every `#Unique` in it and records them in the model's binding, from which the schema
/// learns the constraints; the compiler has already checked the key paths against the
/// macro's signature. This expansion checks what only the context shows: that it stands in a
/// `@Model` class, names that class, and has lists of plain key paths. Whether each key path
/// names a persisted attribute or to-one relationship is checked by `@Model`, which knows the
/// class's properties.
public enum UniqueMacro: DeclarationMacro {
    public static func expansion(
        of node: some FreestandingMacroExpansionSyntax,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        checkKeyPathListMacro(node, in: context)
        return []
    }
}

/// The checks `#Unique` and `#Index` share: the enclosing `@Model` class, the generic
/// argument, and the lists (see ``KeyPathLists``).
func checkKeyPathListMacro(_ node: some FreestandingMacroExpansionSyntax, in context: some MacroExpansionContext) {
    let macro = "#" + node.macroName.text
    let enclosing = context.lexicalContext.first.flatMap { $0.asProtocol(DeclGroupSyntax.self) }
    guard let modelClass = enclosing?.as(ClassDeclSyntax.self),
        modelClass.attribute(named: "Model") != nil
    else {
        context.diagnose(LogbookDiagnostic.keyPathListOutsideModel(macro: macro).diagnose(at: node.macroName))
        return
    }
    let className = modelClass.name.unescapedText
    if let argument = node.genericArgumentClause?.arguments.first,
        case .type(let type) = argument.argument,
        let named = type.simpleName, named != className && named != "Self"
    {
        context.diagnose(
            LogbookDiagnostic.keyPathListOtherModel(macro: macro, written: named, model: className)
                .diagnose(at: type)
        )
    }
    for diagnostic in KeyPathLists(node).diagnostics { context.diagnose(diagnostic) }
}
