import SwiftSyntax
import SwiftSyntaxMacros

/// `@Attribute`: expands to nothing. `@Model` reads its arguments; this expansion checks what
/// syntax can tell: that it is on a stored property, and that `.unique` is not on a type that
/// plainly cannot be unique. The type checker rejects the remaining cases.
public enum AttributeMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let property = StoredPropertyDeclaration(declaration) else {
            context.diagnose(
                LogbookDiagnostic.requiresStoredProperty(macro: "Attribute", name: declaration.propertyName)
                    .diagnose(at: node)
            )
            return []
        }
        if let type = property.type, type.isPlainlyNotUniqueable,
            let unique = node.argumentList.first(where: \.isUniqueOption)
        {
            context.diagnose(
                LogbookDiagnostic.uniqueUnsupportedType(name: property.name, type: type.trimmedDescription)
                    .diagnose(at: unique.expression)
            )
        }
        return []
    }
}

/// A stored instance property with a single simple binding, as the schema macros accept.
struct StoredPropertyDeclaration {
    let declaration: VariableDeclSyntax
    let binding: PatternBindingSyntax
    let name: String

    init?(_ declaration: some DeclSyntaxProtocol) {
        guard let variable = declaration.as(VariableDeclSyntax.self), !variable.isStatic,
            variable.bindings.count == 1, let binding = variable.bindings.first, !binding.isComputed,
            let identifier = binding.identifier
        else {
            return nil
        }
        self.declaration = variable
        self.binding = binding
        self.name = identifier.unescapedText
    }

    var type: TypeSyntax? { binding.typeAnnotation?.type }
}

extension DeclSyntaxProtocol {
    /// The name of a variable declaration's first binding, for messages.
    var propertyName: String? {
        self.as(VariableDeclSyntax.self)?.bindings.first?.identifier?.unescapedText
    }
}
