import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder

// MARK: - Attributes

extension AttributeSyntax {
    /// The attribute's name without module qualification: `Attribute` for `@Logbook.Attribute`.
    var simpleName: String? {
        if let identifier = attributeName.as(IdentifierTypeSyntax.self) { return identifier.name.text }
        if let member = attributeName.as(MemberTypeSyntax.self) { return member.name.text }
        return nil
    }

    /// The attribute's arguments, or an empty list.
    var argumentList: LabeledExprListSyntax {
        if case .argumentList(let arguments) = arguments { return arguments }
        return LabeledExprListSyntax([])
    }
}

extension WithAttributesSyntax {
    /// The first attribute with this simple name.
    func attribute(named name: String) -> AttributeSyntax? {
        for element in attributes {
            if case .attribute(let attribute) = element, attribute.simpleName == name { return attribute }
        }
        return nil
    }
}

// MARK: - Variables

extension VariableDeclSyntax {
    var isStatic: Bool {
        modifiers.contains { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }
    }

    var isLazy: Bool {
        modifiers.contains { $0.name.tokenKind == .keyword(.lazy) }
    }

    var isLet: Bool {
        bindingSpecifier.tokenKind == .keyword(.let)
    }

    var isTransient: Bool {
        attribute(named: "Transient") != nil
    }
}

extension PatternBindingSyntax {
    /// Whether the binding declares getters, setters or other accessors that make it computed.
    var isComputed: Bool {
        guard let accessorBlock else { return false }
        switch accessorBlock.accessors {
        case .getter:
            return true
        case .accessors(let accessors):
            return accessors.contains { accessor in
                let kind = accessor.accessorSpecifier.tokenKind
                return kind != .keyword(.willSet) && kind != .keyword(.didSet)
            }
        }
    }

    /// Whether the binding has `willSet` or `didSet` observers and is otherwise stored.
    var hasObservers: Bool {
        accessorBlock != nil && !isComputed
    }

    /// The bound identifier, for a simple `name` pattern.
    var identifier: TokenSyntax? {
        pattern.as(IdentifierPatternSyntax.self)?.identifier
    }
}

extension TokenSyntax {
    /// The identifier's text without backticks.
    var unescapedText: String {
        let text = self.text
        if text.hasPrefix("`"), text.hasSuffix("`"), text.count >= 2 {
            return String(text.dropFirst().dropLast())
        }
        return text
    }
}

// MARK: - Types

extension TypeSyntax {
    /// Whether the type is spelled as an optional: `T?`, `T!` or `Optional<T>`.
    var isOptional: Bool {
        wrappedInOptional != nil
    }

    /// Whether a stored variable of this type starts `nil` without an initial value. Only the
    /// sugared spellings `T?` and `T!` do; `Optional<T>` written out does not.
    var hasImplicitNil: Bool {
        self.is(OptionalTypeSyntax.self) || self.is(ImplicitlyUnwrappedOptionalTypeSyntax.self)
    }

    /// The wrapped type of an optional spelling, or `nil`.
    var wrappedInOptional: TypeSyntax? {
        if let optional = self.as(OptionalTypeSyntax.self) { return optional.wrappedType }
        if let unwrapped = self.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return unwrapped.wrappedType }
        if let identifier = self.as(IdentifierTypeSyntax.self), identifier.name.text == "Optional",
            let argument = identifier.genericArgumentClause?.arguments.first,
            identifier.genericArgumentClause?.arguments.count == 1
        {
            return argument.argument.as(TypeSyntax.self)
        }
        return nil
    }

    /// The element type of an array spelling, `[T]` or `Array<T>`, or `nil`.
    var arrayElement: TypeSyntax? {
        if let array = self.as(ArrayTypeSyntax.self) { return array.element }
        if let identifier = self.as(IdentifierTypeSyntax.self), identifier.name.text == "Array",
            let argument = identifier.genericArgumentClause?.arguments.first,
            identifier.genericArgumentClause?.arguments.count == 1
        {
            return argument.argument.as(TypeSyntax.self)
        }
        return nil
    }

    /// The type spelled so that a stored property of it gets no implicit `nil`: `T?` and `T!`
    /// become `Optional<T>`.
    ///
    /// A backing field must not be implicitly initialized, or Swift would skip the property's
    /// own initial value (`var list: [Item]? = []` would start `nil`).
    var withoutOptionalSugar: TypeSyntax {
        if let wrapped = self.as(OptionalTypeSyntax.self)?.wrappedType
            ?? self.as(ImplicitlyUnwrappedOptionalTypeSyntax.self)?.wrappedType
        {
            return TypeSyntax("Optional<\(wrapped.trimmed)>")
        }
        return self.trimmed
    }

    /// The last name of a simple type spelling: `Date` for `Date` and `Foundation.Date`.
    var simpleName: String? {
        if let identifier = self.as(IdentifierTypeSyntax.self) { return identifier.name.text }
        if let member = self.as(MemberTypeSyntax.self) { return member.name.text }
        return nil
    }

    /// Whether the type is plainly a value type: a standard scalar, a collection of them, a
    /// tuple, a function.
    var isPlainlyValueType: Bool {
        if self.is(TupleTypeSyntax.self) || self.is(FunctionTypeSyntax.self) || self.is(DictionaryTypeSyntax.self) {
            return true
        }
        if let wrapped = wrappedInOptional { return wrapped.isPlainlyValueType }
        if let element = arrayElement { return element.isPlainlyValueType }
        guard let name = simpleName else { return false }
        return plainValueTypeNames.contains(name)
    }

    /// Whether a unique constraint plainly cannot hold the type.
    var isPlainlyNotUniqueable: Bool {
        let type = wrappedInOptional ?? self
        if type.is(TupleTypeSyntax.self) || type.is(FunctionTypeSyntax.self) || type.is(DictionaryTypeSyntax.self)
            || type.arrayElement != nil || type.isOptional
        {
            return true
        }
        guard let name = type.simpleName else { return false }
        return ["Bool", "Date", "Data", "URL", "Character", "Set", "Dictionary"].contains(name)
    }

    /// A default value for the type, for a fix-it; an editor placeholder when there is none
    /// that is obvious.
    var defaultValueText: String {
        if isOptional { return "nil" }
        if arrayElement != nil { return "[]" }
        if self.is(DictionaryTypeSyntax.self) { return "[:]" }
        switch simpleName {
        case "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
            "Double", "Float", "Decimal":
            return "0"
        case "String": return "\"\""
        case "Bool": return "false"
        case "Set": return "[]"
        case "Date": return ".now"
        case "UUID": return "UUID()"
        case "Data": return "Data()"
        default: return "<#value#>"
        }
    }
}

private let plainValueTypeNames: Set<String> = [
    "Bool", "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
    "Double", "Float", "Decimal", "String", "Substring", "Character", "Date", "UUID", "URL", "Data",
    "Set", "Dictionary",
]

// MARK: - The persisted properties of a model class

/// A stored property that `@Model` persists.
struct PersistedProperty {
    /// The property's declaration.
    let declaration: VariableDeclSyntax
    /// The property's identifier as written, backticks included.
    let identifier: TokenSyntax
    /// The property's type annotation.
    let type: TypeSyntax
    /// Whether the declaration gives a default: an initial value, or `nil` for an optional.
    let hasDefaultValue: Bool

    /// The property's name without backticks.
    var name: String { identifier.unescapedText }

    /// The property's `@Attribute`, if any.
    var attributeMacro: AttributeSyntax? { declaration.attribute(named: "Attribute") }

    /// The property's `@Relationship`, if any.
    var relationshipMacro: AttributeSyntax? { declaration.attribute(named: "Relationship") }

    /// The transformer of an `@Attribute(.transformable(by: T.self))`, if any.
    var transformer: ExprSyntax? {
        attributeMacro?.argumentList.lazy.compactMap(\.transformer).first
    }

    /// Whether the property has `.transformable(by:)`.
    var isTransformable: Bool { transformer != nil }

    /// Whether `@Attribute` lists `.unique`.
    var isUnique: Bool {
        attributeMacro?.argumentList.contains { $0.isUniqueOption } ?? false
    }
}

extension LabeledExprSyntax {
    /// Whether this is an unlabeled `.unique` option.
    var isUniqueOption: Bool {
        label == nil && expression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "unique"
    }

    /// The `by:` argument of an unlabeled `.transformable(by:)` option.
    var transformer: ExprSyntax? {
        guard label == nil, let call = expression.as(FunctionCallExprSyntax.self),
            call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "transformable",
            let argument = call.arguments.first, argument.label?.text == "by"
        else { return nil }
        return argument.expression.trimmed
    }
}

/// The members of a model class, sorted into persisted properties and problems.
struct ModelMembers {
    /// The persisted properties in declaration order; a property's position is its index.
    private(set) var persisted: [PersistedProperty] = []
    /// What is wrong with the members.
    private(set) var diagnostics: [Diagnostic] = []
    /// Whether the class declares an initializer.
    private(set) var declaresInitializer = false

    init(_ members: MemberBlockSyntax) {
        for member in members.members {
            if member.decl.is(InitializerDeclSyntax.self) {
                declaresInitializer = true
            } else if let variable = member.decl.as(VariableDeclSyntax.self) {
                inspect(variable)
            } else if let conditional = member.decl.as(IfConfigDeclSyntax.self), conditional.declaresStoredProperty {
                diagnostics.append(
                    LogbookDiagnostic.storedPropertyInIfConfig.diagnose(
                        at: conditional.clauses.first?.poundKeyword ?? conditional.poundEndif
                    )
                )
            }
        }
    }

    /// The index of the persisted property with this name.
    func index(of name: String) -> Int? {
        persisted.firstIndex { $0.name == name }
    }

    private mutating func inspect(_ variable: VariableDeclSyntax) {
        guard !variable.isStatic, !variable.isLazy, !variable.isTransient else { return }
        let stored = variable.bindings.filter { !$0.isComputed }
        guard !stored.isEmpty else { return }
        guard variable.bindings.count == 1, let binding = stored.first, let identifier = binding.identifier else {
            diagnostics.append(LogbookDiagnostic.multipleBindings.diagnose(at: variable.bindings))
            return
        }
        let name = identifier.unescapedText
        if variable.isLet {
            diagnostics.append(
                LogbookDiagnostic.letProperty(name: name).diagnose(
                    at: variable.bindingSpecifier,
                    fixIts: [
                        FixIt(
                            message: LogbookFixIt.replaceLetWithVar,
                            changes: [
                                .replace(
                                    oldNode: Syntax(variable.bindingSpecifier),
                                    newNode: Syntax(variable.bindingSpecifier.with(\.tokenKind, .keyword(.var)))
                                )
                            ]
                        )
                    ]
                )
            )
            return
        }
        if let accessorBlock = binding.accessorBlock, binding.hasObservers {
            diagnostics.append(LogbookDiagnostic.propertyObservers(name: name).diagnose(at: accessorBlock))
            return
        }
        guard let type = binding.typeAnnotation?.type else {
            diagnostics.append(missingType(binding, name: name))
            return
        }
        persisted.append(
            PersistedProperty(
                declaration: variable,
                identifier: identifier.trimmed,
                type: type.trimmed,
                hasDefaultValue: binding.initializer != nil || type.hasImplicitNil
            )
        )
    }

    private func missingType(_ binding: PatternBindingSyntax, name: String) -> Diagnostic {
        let literalType: String? =
            switch binding.initializer?.value.kind {
            case .stringLiteralExpr: "String"
            case .integerLiteralExpr: "Int"
            case .floatLiteralExpr: "Double"
            case .booleanLiteralExpr: "Bool"
            default: nil
            }
        var fixIts: [FixIt] = []
        if let literalType {
            let annotated = binding.pattern.trimmed.with(\.trailingTrivia, [])
            let annotation = TypeAnnotationSyntax(
                colon: .colonToken(trailingTrivia: .space),
                type: TypeSyntax(IdentifierTypeSyntax(name: .identifier(literalType))),
                trailingTrivia: binding.pattern.trailingTrivia
            )
            fixIts.append(
                FixIt(
                    message: LogbookFixIt.insertTypeAnnotation(literalType),
                    changes: [
                        .replace(
                            oldNode: Syntax(binding),
                            newNode: Syntax(
                                binding.with(\.pattern, PatternSyntax(annotated)).with(\.typeAnnotation, annotation)
                            )
                        )
                    ]
                )
            )
        }
        return LogbookDiagnostic.missingTypeAnnotation(name: name).diagnose(at: binding.pattern, fixIts: fixIts)
    }
}

extension IfConfigDeclSyntax {
    /// Whether any clause declares a stored instance property that `@Model` would persist.
    var declaresStoredProperty: Bool {
        clauses.contains { clause in
            guard case .decls(let members) = clause.elements else { return false }
            return members.contains { member in
                guard let variable = member.decl.as(VariableDeclSyntax.self) else { return false }
                return !variable.isStatic && !variable.isLazy && !variable.isTransient
                    && variable.bindings.contains { !$0.isComputed }
            }
        }
    }
}
