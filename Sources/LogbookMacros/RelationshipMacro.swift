import SwiftSyntax
import SwiftSyntaxMacros

/// `@Relationship`: expands to nothing. `@Model` reads its arguments; this expansion checks
/// what syntax can tell: that it is on a stored property, not alongside `@Attribute`, not on a
/// type that is plainly a value type, and that `.unique` is not on a to-many relationship.
/// The type checker rejects the remaining cases, such as a struct or a non-optional to-one.
public enum RelationshipMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let property = StoredPropertyDeclaration(declaration) else {
            context.diagnose(
                LogbookDiagnostic.requiresStoredProperty(macro: "Relationship", name: declaration.propertyName)
                    .diagnose(at: node)
            )
            return []
        }
        if property.declaration.attribute(named: "Attribute") != nil {
            context.diagnose(LogbookDiagnostic.attributeAndRelationship(name: property.name).diagnose(at: node))
        }
        guard let type = property.type else { return [] }
        if type.isPlainlyValueType {
            context.diagnose(
                LogbookDiagnostic.relationshipRequiresModel(name: property.name, type: type.trimmedDescription)
                    .diagnose(at: type)
            )
        } else if (type.wrappedInOptional ?? type).arrayElement != nil,
            let unique = node.argumentList.first(where: \.isUniqueOption)
        {
            context.diagnose(
                LogbookDiagnostic.uniqueToManyRelationship(name: property.name).diagnose(at: unique.expression)
            )
        }
        return []
    }
}
