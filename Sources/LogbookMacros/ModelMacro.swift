import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Model`: makes a class a persistent model; on a subclass of a model class, a model that
/// inherits its superclass's properties (model inheritance).
///
/// The member role adds the observation registrar, the storage, the binding and the
/// initializer that materialises a model without the user's initializer. The member-attribute
/// role attaches `@_LogbookPersistedProperty(index)` to each persisted property, which turns it
/// into accessors over a typed backing field. The extension role adds the `PersistentModel`
/// conformance. Diagnostics about the class and its members are emitted by the member role
/// only, so each appears once.
///
/// On a subclass of a model class (which the compiler tells the member role by not asking for
/// the conformance, which the class has already), the member role adds only what is the
/// subclass's own: its binding, which starts with the superclass's properties, an override
/// of `_$bindingBox`, and the materialising initializer, which assigns the subclass's fields
/// and calls the superclass's. Its properties' indexes follow the superclass's, whose number
/// the expansion reads at run time (`_$indexBase`).
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
        // The class has `PersistentModel` already, from its superclass, when the compiler does
        // not list it among the conformances to add.
        let inherits = protocols.isEmpty
        guard let superclass = checkedSuperclass(of: modelClass, inherits: inherits, in: context) else { return [] }
        let entityName = className.unescapedText
        let descriptors = members.persisted.map { "\(className)._$property_\($0.name)()" }
        let propertyList =
            descriptors.isEmpty
            ? "[]" : "[\n" + descriptors.map { "            \($0)" }.joined(separator: ",\n") + ",\n        ]"
        let declared = declaredKeyPathLists(in: modelClass, persisted: members.persisted, context: context)
        var keyPathArguments = ""
        if !declared.unique.isEmpty { keyPathArguments += ",\n        uniquenessConstraints: \(declared.unique)" }
        if !declared.index.isEmpty { keyPathArguments += ",\n        indexes: \(declared.index)" }
        let isFinal = modelClass.modifiers.contains { $0.name.tokenKind == .keyword(.final) }
        // `static` is `class final`: a final class needs no overridable requirement.
        let typeMember = isFinal ? "static" : "class"

        var decls: [DeclSyntax] = []
        if let superclass {
            // A subclass inherits the storage, the registrar and the conformance; its own
            // properties follow its superclass's, whose number is known at run time only.
            decls += [
                "private static let _$indexBase = \(superclass)._$bindingBox.propertyCount",
                """
                private static let _$bindingBoxStorage = Logbook._$ModelBindingBox<\(className)>(
                    Logbook._$ModelBinding<\(className)>(
                        entityName: \(literal: entityName),
                        inheriting: \(superclass).self,
                        upcast: { $0 },
                        properties: \(raw: propertyList)\(raw: keyPathArguments)
                    )
                )
                """,
                """
                public override \(raw: typeMember) var _$bindingBox: Logbook._$AnyModelBinding {
                    _$bindingBoxStorage
                }
                """,
                materializingInitializer(className: className, properties: members.persisted, superclass: superclass),
            ]
            return decls
        }
        decls += [
            // Made on the first read of a property that Observation can see: see
            // `_$ModelObservationRegistrar`.
            "@exclusivity(unchecked) public var _$observationRegistrar = Logbook._$ModelObservationRegistrar()",
            // Every read of the bookkeeping (is the model stored, which relationships are faults)
            // went through a dynamic exclusivity check; only Logbook touches it, never while
            // another access to it is open.
            "@exclusivity(unchecked) public var _$storage = Logbook._$ModelStorage()",
            """
            private static let _$bindingBoxStorage = Logbook._$ModelBindingBox<\(className)>(
                Logbook._$ModelBinding<\(className)>(
                    entityName: \(literal: entityName),
                    properties: \(raw: propertyList)\(raw: keyPathArguments)
                )
            )
            """,
            """
            public \(raw: typeMember) var _$bindingBox: Logbook._$AnyModelBinding {
                _$bindingBoxStorage
            }
            """,
            materializingInitializer(
                className: className,
                properties: members.persisted,
                superclass: nil,
                isFinal: isFinal
            ),
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

    /// The superclass's name for a subclass of a model class, `""` for a class at the root of a
    /// hierarchy, or `nil` after diagnosing a class whose initializers and superclass disagree.
    ///
    /// Whether a class is a subclass is known to the compiler (`inherits`), but not to the
    /// macros that expand its properties, which see its syntax alone: they take a class whose
    /// initializers call `super.init` for a subclass. The two must agree.
    private static func checkedSuperclass(
        of modelClass: ClassDeclSyntax,
        inherits: Bool,
        in context: some MacroExpansionContext
    ) -> TypeSyntax?? {
        let name = modelClass.name.unescapedText
        let callsSuper = modelClass.memberBlock.callsSuperInit
        if inherits, !callsSuper {
            context.diagnose(LogbookDiagnostic.modelSubclassWithoutSuperInit(name: name).diagnose(at: modelClass.name))
            return nil
        }
        if !inherits, callsSuper {
            context.diagnose(LogbookDiagnostic.modelSuperclassNotModel(name: name).diagnose(at: modelClass.name))
            return nil
        }
        guard inherits else { return .some(nil) }
        guard let superclass = modelClass.inheritanceClause?.inheritedTypes.first?.type.trimmed else {
            context.diagnose(LogbookDiagnostic.modelSuperclassNotModel(name: name).diagnose(at: modelClass.name))
            return nil
        }
        return .some(superclass)
    }

    /// `init(_$storage:values:)`: assigns each backing field from its stored value, then, in a
    /// subclass, lets the superclass assign its own.
    private static func materializingInitializer(
        className: TokenSyntax,
        properties: [PersistedProperty],
        superclass: TypeSyntax?,
        isFinal: Bool = true
    ) -> DeclSyntax {
        var body = superclass == nil ? "    self._$storage = consume storage\n" : ""
        for (index, property) in properties.enumerated() {
            let decode = property.isTransformable ? "_$decodeWithBinding" : "_$decode"
            let position = superclass == nil ? "\(index)" : "\(className)._$indexBase + \(index)"
            let stored = "Logbook._$ModelStorage.\(decode)(&values, \(position), \(className).self)"
            // A non-optional property never stores nil: a missing value means the attribute
            // was added after the object was saved, and takes the declared default.
            if !property.type.isOptional, let initial = property.declaration.bindings.first?.initializer?.value {
                body +=
                    "    self._\(property.name) = try Logbook._$ModelStorage._$isMissing(values, \(position)) ? (\(initial.trimmedDescription)) : \(stored)\n"
            } else {
                body += "    self._\(property.name) = try \(stored)\n"
            }
        }
        if superclass != nil { body += "    try super.init(_$storage: storage, values: &values)\n" }
        // A class others may inherit from must have the initializer in every subclass.
        let modifiers = isFinal && superclass == nil ? "public" : "public required"
        return """
            \(raw: modifiers) init(_$storage storage: consuming Logbook._$ModelStorage, values: inout [Logbook.AttributeValue]) throws {
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
        // The property's macro sees the class without its members (a macro's lexical context
        // is stripped of them), so it is told here whether the class is a subclass.
        if modelClass.memberBlock.callsSuperInit {
            return ["@_LogbookPersistedProperty(\(raw: index), inherited: true)"]
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
