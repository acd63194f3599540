import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@_LogbookPersistedProperty(index)`: what `@Model` attaches to each persisted property.
///
/// The accessor role turns the property into accessors over a typed backing field `_name`:
/// an `init` accessor, so that the user's initializer assigns the field directly; a getter that
/// reports the access to Observation and loads a faulted relationship; a setter that reports
/// the mutation and records the change. The peer role declares the backing field, the
/// property's key path `_$keyPath_name`, and `_$property_name()`, which describes the property to
/// the model's binding by calling an overloaded factory: the type checker, not this macro,
/// decides whether the property is an attribute or a relationship, and rejects types that
/// cannot be stored.
///
/// The accessors report the key path from the static `_$keyPath_name` rather than from a literal:
/// a key path literal asks the runtime for its object on every evaluation (64 of the
/// instructions of each read), where a static is made once.
public enum PersistedPropertyMacro {}

// MARK: - Accessors

extension PersistedPropertyMacro: AccessorMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        guard let property = PropertyToPersist(node, declaration, context) else { return [] }
        let field = property.field
        let keyPath = property.keyPathName
        // In a subclass of a model class, the index follows the superclass's properties, and
        // the initializer assigns the field before `super.init`, when the inherited storage
        // cannot be reached yet.
        let index =
            property.isInSubclass ? "\(property.className)._$indexBase + \(property.index)" : "\(property.index)"
        let initAccessor: AccessorDeclSyntax =
            property.isInSubclass
            ? """
            @storageRestrictions(initializes: \(raw: field))
            init(initialValue) {
                \(raw: field) = initialValue
            }
            """
            : """
            @storageRestrictions(initializes: \(raw: field), accesses: _$storage)
            init(initialValue) {
                Logbook._$ModelStorage._$initialValue(initialValue, &_$storage)
                \(raw: field) = initialValue
            }
            """
        return [
            initAccessor,
            """
            get {
                _$observationRegistrar.access(self, keyPath: Self.\(raw: keyPath))
                if _$storage._$isFaulted(\(raw: index)) {
                    Logbook._$ModelStorage._$resolveFault(self, \(raw: index))
                }
                return \(raw: field)
            }
            """,
            """
            set {
                if _$storage._$isFaulted(\(raw: index)) {
                    Logbook._$ModelStorage._$resolveFault(self, \(raw: index))
                }
                let oldValue = \(raw: field)
                _$observationRegistrar.withMutation(of: self, keyPath: Self.\(raw: keyPath)) {
                    \(raw: field) = newValue
                }
                Logbook._$ModelStorage._$didSet(self, \(raw: index), from: oldValue, to: newValue)
            }
            """,
        ]
    }
}

// MARK: - Peers

extension PersistedPropertyMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let property = PropertyToPersist(node, declaration, context) else { return [] }
        let model = property.className
        let type = property.type.withoutOptionalSugar
        var arguments = [
            "\(StringLiteralExprSyntax(content: property.name))",
            "keyPath: \\\(model).\(property.identifier)",
            "get: { (model: \(model)) -> \(type) in model.\(property.field) }",
            "set: { (model: \(model), value: \(type)) in model.\(property.field) = value }",
            "hasDefaultValue: \(property.hasDefaultValue)",
        ]
        let factory: String
        let macroArguments: LabeledExprListSyntax
        if let relationship = property.relationshipMacro {
            factory = "relationship"
            macroArguments = relationship.argumentList
        } else if let attribute = property.attributeMacro {
            macroArguments = attribute.argumentList
            if let transformer = property.transformer {
                factory = "transformableAttribute"
                arguments.append("transformer: \(transformer)")
            } else if property.isUnique {
                factory = "uniqueAttribute"
            } else {
                factory = "attribute"
            }
        } else {
            factory = "property"
            macroArguments = LabeledExprListSyntax([])
        }
        arguments += macroArguments.map { $0.with(\.trailingComma, nil).trimmedDescription }
        let argumentLines = arguments.map { "        \($0)" }.joined(separator: ",\n")
        return [
            "private var \(raw: property.field): \(type)",
            "private static let \(raw: property.keyPathName) = \\\(raw: model).\(property.identifier)",
            """
            private static func _$property_\(raw: property.name)() -> Logbook._$PropertyBinding<\(raw: model)> {
                Logbook._$PropertyBinding<\(raw: model)>.\(raw: factory)(
            \(raw: argumentLines)
                )
            }
            """,
        ]
    }
}

// MARK: - The property

/// A property that `@_LogbookPersistedProperty` applies to, with what the expansions need.
private struct PropertyToPersist {
    let identifier: TokenSyntax
    let type: TypeSyntax
    let index: Int
    let className: String
    /// Whether the class is a subclass of a model class: `inherited: true`, which `@Model`
    /// passes after `MemberBlockSyntax.callsSuperInit`.
    let isInSubclass: Bool
    let hasDefaultValue: Bool
    let declaration: VariableDeclSyntax

    init?(_ node: AttributeSyntax, _ declaration: some DeclSyntaxProtocol, _ context: some MacroExpansionContext) {
        guard let variable = declaration.as(VariableDeclSyntax.self), variable.bindings.count == 1,
            let binding = variable.bindings.first, !binding.isComputed, !binding.hasObservers,
            let identifier = binding.identifier, let type = binding.typeAnnotation?.type,
            let indexText = node.argumentList.first?.expression.as(IntegerLiteralExprSyntax.self)?.literal.text,
            let index = Int(indexText),
            let modelClass = context.lexicalContext.lazy.compactMap({ $0.as(ClassDeclSyntax.self) }).first
        else {
            return nil
        }
        self.identifier = identifier.trimmed
        self.type = type.trimmed
        self.index = index
        self.className = modelClass.name.trimmedDescription
        self.isInSubclass = node.argumentList.contains { argument in
            argument.label?.text == "inherited"
                && argument.expression.as(BooleanLiteralExprSyntax.self)?.literal.tokenKind == .keyword(.true)
        }
        self.hasDefaultValue = binding.initializer != nil || type.hasImplicitNil
        self.declaration = variable
    }

    var name: String { identifier.unescapedText }
    var field: String { "_\(name)" }
    var keyPathName: String { "_$keyPath_\(name)" }
    var relationshipMacro: AttributeSyntax? { declaration.attribute(named: "Relationship") }
    var attributeMacro: AttributeSyntax? { declaration.attribute(named: "Attribute") }

    var transformer: ExprSyntax? {
        attributeMacro?.argumentList.lazy.compactMap(\.transformer).first
    }

    var isUnique: Bool {
        attributeMacro?.argumentList.contains { $0.isUniqueOption } ?? false
    }
}
