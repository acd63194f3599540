import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Model`: makes a final class a persistent model.
///
/// The member role adds the observation registrar, the storage, the binding and the
/// initializer that materialises a model without the user's initializer. The member-attribute
/// role attaches `@_LogbookPersistedProperty(index)` to each persisted property, which turns it
/// into accessors over a typed backing field. The extension role adds the `PersistentModel`
/// conformance. Diagnostics about the class and its members are emitted by the member role
/// only, so each appears once.
public enum ModelMacro {}

// MARK: - Member

extension ModelMacro: MemberMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let modelClass = validatedClass(declaration, in: context) else { return [] }
        let members = ModelMembers(modelClass.memberBlock)
        for diagnostic in members.diagnostics { context.diagnose(diagnostic) }

        let className = modelClass.name.trimmed
        let entityName = className.unescapedText
        let descriptors = members.persisted.map { "\(className)._$property_\($0.name)()" }
        let propertyList =
            descriptors.isEmpty
            ? "[]" : "[\n" + descriptors.map { "        \($0)" }.joined(separator: ",\n") + ",\n    ]"
        let declared = declaredKeyPathLists(in: modelClass, persisted: members.persisted, context: context)
        var keyPathArguments = ""
        if !declared.unique.isEmpty { keyPathArguments += ",\n    uniquenessConstraints: \(declared.unique)" }
        if !declared.index.isEmpty { keyPathArguments += ",\n    indexes: \(declared.index)" }

        var decls: [DeclSyntax] = [
            // Made on the first read of a property that Observation can see: see
            // `_$ModelObservationRegistrar`.
            "@exclusivity(unchecked) public var _$observationRegistrar = Logbook._$ModelObservationRegistrar()",
            // Every read of the bookkeeping (is the model stored, which relationships are faults)
            // went through a dynamic exclusivity check; only Logbook touches it, never while
            // another access to it is open.
            "@exclusivity(unchecked) public var _$storage = Logbook._$ModelStorage()",
            """
            public static let _$binding = Logbook._$ModelBinding<\(className)>(
                entityName: \(literal: entityName),
                properties: \(raw: propertyList)\(raw: keyPathArguments)
            )
            """,
            materializingInitializer(className: className, properties: members.persisted),
            """
            public static func _$array(_ models: [AnyObject]) -> [\(className)] {
                Logbook._$ModelStorage._$array(models, of: \(className).self)
            }
            """,
            // Read from the class's own field: a default in Logbook, compiled for each type, read
            // the whole storage through a copy where the compiler merged the types' versions.
            """
            public var _$storedNumber: UInt64? {
                Logbook._$ModelStorage._$storedNumber(of: _$storage)
            }
            """,
        ]
        if !members.declaresInitializer, members.persisted.allSatisfy(\.hasDefaultValue) {
            decls.append("init() {}")
        }
        return decls
    }

    /// `init(_$storage:values:)`: assigns each backing field from its stored value.
    private static func materializingInitializer(
        className: TokenSyntax,
        properties: [PersistedProperty]
    ) -> DeclSyntax {
        var body = "    self._$storage = consume storage\n"
        for (index, property) in properties.enumerated() {
            let decode = property.isTransformable ? "_$decodeWithBinding" : "_$decode"
            let stored = "Logbook._$ModelStorage.\(decode)(&values, \(index), \(className).self)"
            // A non-optional property never stores nil: a missing value means the attribute
            // was added after the object was saved, and takes the declared default.
            if !property.type.isOptional, let initial = property.declaration.bindings.first?.initializer?.value {
                body +=
                    "    self._\(property.name) = try Logbook._$ModelStorage._$isMissing(values, \(index)) ? (\(initial.trimmedDescription)) : \(stored)\n"
            } else {
                body += "    self._\(property.name) = try \(stored)\n"
            }
        }
        return """
            public init(_$storage storage: consuming Logbook._$ModelStorage, values: inout [Logbook.AttributeValue]) throws {
            \(raw: body)}
            """
    }

    /// The property names of the `#Unique` and `#Index` lists in the class body, as Swift
    /// literals (`[["name", "startDate"]]`), after diagnosing key paths that name no persisted
    /// property or an array. A list with such a key path is left out.
    private static func declaredKeyPathLists(
        in modelClass: ClassDeclSyntax,
        persisted: [PersistedProperty],
        context: some MacroExpansionContext
    ) -> (unique: String, index: String) {
        let model = modelClass.name.unescapedText
        var unique: [String] = []
        var index: [String] = []
        for expansion in modelClass.memberBlock.keyPathListMacros {
            let lists = KeyPathLists(expansion)
            for list in lists.lists {
                var names: [String] = []
                for path in list {
                    guard let property = persisted.first(where: { $0.name == path.name }) else {
                        context.diagnose(
                            LogbookDiagnostic.keyPathNotPersisted(macro: lists.macro, name: path.name, model: model)
                                .diagnose(at: path.expression)
                        )
                        continue
                    }
                    if (property.type.wrappedInOptional ?? property.type).arrayElement != nil {
                        context.diagnose(
                            LogbookDiagnostic.keyPathToArray(macro: lists.macro, name: path.name, model: model)
                                .diagnose(at: path.expression)
                        )
                        continue
                    }
                    // One key path is `@Attribute(.unique)` on the property, with its rule on types.
                    if lists.macro == "#Unique", list.count == 1, property.type.isPlainlyNotUniqueable {
                        context.diagnose(
                            LogbookDiagnostic.uniqueKeyPathUnsupportedType(
                                name: path.name,
                                type: property.type.trimmedDescription
                            ).diagnose(at: path.expression)
                        )
                        continue
                    }
                    names.append(path.name)
                }
                guard names.count == list.count else { continue }
                let literal = "[" + names.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
                if lists.macro == "#Unique" { unique.append(literal) } else { index.append(literal) }
            }
        }
        let spell = { (lists: [String]) in lists.isEmpty ? "" : "[" + lists.joined(separator: ", ") + "]" }
        return (spell(unique), spell(index))
    }

    /// The class `@Model` is attached to, or `nil` after diagnosing why it cannot be a model.
    private static func validatedClass(
        _ declaration: some DeclGroupSyntax,
        in context: some MacroExpansionContext
    ) -> ClassDeclSyntax? {
        guard let modelClass = declaration.as(ClassDeclSyntax.self) else {
            let (keyword, name) = declaration.keywordAndName
            context.diagnose(
                LogbookDiagnostic.modelRequiresClass(keyword: keyword.text, name: name?.unescapedText)
                    .diagnose(at: keyword)
            )
            return nil
        }
        let name = modelClass.name.unescapedText
        if let generics = modelClass.genericParameterClause {
            context.diagnose(LogbookDiagnostic.modelGenericClass(name: name).diagnose(at: generics))
            return nil
        }
        if !modelClass.modifiers.contains(where: { $0.name.tokenKind == .keyword(.final) }) {
            let final = DeclModifierSyntax(name: .keyword(.final), trailingTrivia: .space)
            let fixed =
                modelClass.modifiers.isEmpty
                ? modelClass
                    .with(
                        \.modifiers,
                        DeclModifierListSyntax([final.with(\.leadingTrivia, modelClass.classKeyword.leadingTrivia)])
                    )
                    .with(\.classKeyword, modelClass.classKeyword.with(\.leadingTrivia, []))
                : modelClass.with(\.modifiers, modelClass.modifiers + [final])
            context.diagnose(
                LogbookDiagnostic.modelRequiresFinalClass(name: name).diagnose(
                    at: modelClass.classKeyword,
                    fixIts: [
                        FixIt(
                            message: LogbookFixIt.addFinal,
                            changes: [.replace(oldNode: Syntax(modelClass), newNode: Syntax(fixed))]
                        )
                    ]
                )
            )
        }
        return modelClass
    }
}

// MARK: - Member attribute

extension ModelMacro: MemberAttributeMacro {
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingAttributesFor member: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AttributeSyntax] {
        guard let modelClass = declaration.as(ClassDeclSyntax.self), modelClass.genericParameterClause == nil,
            let variable = member.as(VariableDeclSyntax.self),
            let name = variable.bindings.first?.identifier?.unescapedText,
            let index = ModelMembers(modelClass.memberBlock).index(of: name)
        else {
            return []
        }
        return ["@_LogbookPersistedProperty(\(raw: index))"]
    }
}

// MARK: - Extension

extension ModelMacro: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard let modelClass = declaration.as(ClassDeclSyntax.self), modelClass.genericParameterClause == nil,
            !protocols.isEmpty
        else {
            return []
        }
        return [try ExtensionDeclSyntax("extension \(type.trimmed): Logbook.PersistentModel {}")]
    }
}

// MARK: - Helpers

extension DeclGroupSyntax {
    /// The introducing keyword and the name of a declaration group, for messages.
    var keywordAndName: (keyword: TokenSyntax, name: TokenSyntax?) {
        (introducer, self.asProtocol(NamedDeclSyntax.self)?.name)
    }
}
