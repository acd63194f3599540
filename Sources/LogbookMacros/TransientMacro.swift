import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@Transient`: expands to nothing; `@Model` leaves the property alone. This expansion checks
/// that the property is stored, is not also `@Attribute` or `@Relationship`, and has a default
/// (an initial value, or an optional's implicit `nil`), offering a fix-it that inserts one.
public enum TransientMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let property = StoredPropertyDeclaration(declaration) else {
            context.diagnose(
                LogbookDiagnostic.requiresStoredProperty(macro: "Transient", name: declaration.propertyName)
                    .diagnose(at: node)
            )
            return []
        }
        for other in ["Attribute", "Relationship"] {
            if let attribute = property.declaration.attribute(named: other) {
                context.diagnose(
                    LogbookDiagnostic.transientWithSchemaMacro(name: property.name, other: other).diagnose(
                        at: attribute
                    )
                )
            }
        }
        let binding = property.binding
        guard binding.initializer == nil, !property.declaration.isLazy else { return [] }
        if let type = property.type, type.hasImplicitNil, !property.declaration.isLet { return [] }
        context.diagnose(
            LogbookDiagnostic.transientRequiresDefault(name: property.name).diagnose(
                at: binding.pattern,
                fixIts: defaultValueFixIt(binding, type: property.type)
            )
        )
        return []
    }

    /// Inserts ` = <default>` after the type annotation.
    private static func defaultValueFixIt(_ binding: PatternBindingSyntax, type: TypeSyntax?) -> [FixIt] {
        guard let type, let annotation = binding.typeAnnotation else { return [] }
        let value = type.defaultValueText
        let fixed =
            binding
            .with(\.typeAnnotation, annotation.with(\.trailingTrivia, .space))
            .with(
                \.initializer,
                InitializerClauseSyntax(
                    equal: .equalToken(trailingTrivia: .space),
                    value: ExprSyntax(stringLiteral: value).with(\.trailingTrivia, annotation.trailingTrivia)
                )
            )
        return [
            FixIt(
                message: LogbookFixIt.insertDefault(value),
                changes: [.replace(oldNode: Syntax(binding), newNode: Syntax(fixed))]
            )
        ]
    }
}
