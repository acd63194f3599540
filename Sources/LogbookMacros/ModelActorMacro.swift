import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@ModelActor`: makes an actor work with a store through a context of its own.
///
/// The member role adds `modelExecutor`, `modelContainer` and `init(modelContainer:)`, which
/// makes a context for the container and a `DefaultSerialModelExecutor` that owns it; they
/// take the actor's access level when it is `public` or `package`, so that they can satisfy
/// the protocol's requirements. The extension role adds the `ModelActor` conformance, whose
/// extension makes the executor the actor's. Diagnostics come from the member role only.
public enum ModelActorMacro {}

// MARK: - Member

extension ModelActorMacro: MemberMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let actor = declaration.as(ActorDeclSyntax.self) else {
            let (keyword, name) = declaration.keywordAndName
            context.diagnose(
                LogbookDiagnostic.modelActorRequiresActor(keyword: keyword.text, name: name?.unescapedText)
                    .diagnose(at: keyword)
            )
            return []
        }
        let access = accessModifier(of: actor)
        return [
            "\(raw: access)nonisolated let modelExecutor: any Logbook.ModelExecutor",
            "\(raw: access)nonisolated let modelContainer: Logbook.ModelContainer",
            """
            \(raw: access)init(modelContainer: Logbook.ModelContainer) {
                let modelContext = Logbook.ModelContext(modelContainer)
                self.modelExecutor = Logbook.DefaultSerialModelExecutor(modelContext: modelContext)
                self.modelContainer = modelContainer
            }
            """,
        ]
    }

    /// `public ` or `package ` when the actor is declared so (an `open` actor cannot be), or
    /// nothing.
    private static func accessModifier(of actor: ActorDeclSyntax) -> String {
        for modifier in actor.modifiers {
            switch modifier.name.tokenKind {
            case .keyword(.public): return "public "
            case .keyword(.package): return "package "
            default: continue
            }
        }
        return ""
    }
}

// MARK: - Extension

extension ModelActorMacro: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard declaration.is(ActorDeclSyntax.self), !protocols.isEmpty else { return [] }
        return [try ExtensionDeclSyntax("extension \(type.trimmed): Logbook.ModelActor {}")]
    }
}
