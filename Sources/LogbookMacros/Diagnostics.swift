import SwiftDiagnostics
import SwiftSyntax

/// Every diagnostic the schema macros emit. Each has a stable ``MessageID`` in the domain
/// "Logbook"; tools and tests may rely on the IDs, not on the wording.
enum LogbookDiagnostic: DiagnosticMessage {
    /// `@Model` on a struct, enum, actor, protocol or extension.
    case modelRequiresClass(keyword: String, name: String?)
    /// `@Model` on a subclass of a model class that declares no initializer calling
    /// `super.init`.
    case modelSubclassWithoutSuperInit(name: String)
    /// `@Model` on a class whose initializers call `super.init` but whose superclass is not a
    /// model class.
    case modelSuperclassNotModel(name: String)
    /// `@Model` on a generic class.
    case modelGenericClass(name: String)
    /// A persisted property declared with `let`.
    case letProperty(name: String)
    /// A persisted property without a type annotation.
    case missingTypeAnnotation(name: String)
    /// A persisted property with `willSet` or `didSet`.
    case propertyObservers(name: String)
    /// Several variables in one persisted `var` declaration.
    case multipleBindings
    /// Stored properties inside `#if` in a model class.
    case storedPropertyInIfConfig
    /// `@Transient` on a non-optional stored property without a default.
    case transientRequiresDefault(name: String)
    /// `@Attribute`, `@Relationship` or `@Transient` on something other than a stored
    /// instance property.
    case requiresStoredProperty(macro: String, name: String?)
    /// `@Transient` together with `@Attribute` or `@Relationship`.
    case transientWithSchemaMacro(name: String, other: String)
    /// `@Attribute` and `@Relationship` on one property.
    case attributeAndRelationship(name: String)
    /// `.unique` on a type a unique constraint cannot hold.
    case uniqueUnsupportedType(name: String, type: String)
    /// `@Relationship` on a property whose type is plainly not a model.
    case relationshipRequiresModel(name: String, type: String)
    /// `.unique` on a to-many relationship.
    case uniqueToManyRelationship(name: String)
    /// `@ModelActor` on a class, struct, enum, protocol or extension.
    case modelActorRequiresActor(keyword: String, name: String?)
    /// `#Unique` or `#Index` outside the body of a `@Model` class.
    case keyPathListOutsideModel(macro: String)
    /// `#Unique<Other>` or `#Index<Other>` in the body of another model class.
    case keyPathListOtherModel(macro: String, written: String, model: String)
    /// `#Unique` or `#Index` without any list.
    case keyPathListsMissing(macro: String)
    /// An argument of `#Unique` or `#Index` that is not an array literal.
    case keyPathListLiteral(macro: String)
    /// An empty list of key paths.
    case emptyKeyPathList(macro: String)
    /// An element of a list that is not a key path to one property.
    case keyPathToProperty(macro: String, text: String)
    /// An `#Index` kind other than `.binary`.
    case unsupportedIndexKind(kind: String)
    /// A key path to a property `@Model` does not persist.
    case keyPathNotPersisted(macro: String, name: String, model: String)
    /// A key path to an array: a to-many relationship or an array attribute.
    case keyPathToArray(macro: String, name: String, model: String)
    /// `#Unique` on one key path to a property of a type a unique constraint cannot hold.
    case uniqueKeyPathUnsupportedType(name: String, type: String)

    var message: String {
        switch self {
        case .modelRequiresClass(let keyword, let name):
            "'@Model' cannot be applied to \(keyword)\(name.map { " '\($0)'" } ?? ""); apply it to a class"
        case .modelSubclassWithoutSuperInit(let name):
            "'@Model' subclass '\(name)' must declare an initializer that calls 'super.init'"
        case .modelSuperclassNotModel(let name):
            "'@Model' class '\(name)' calls 'super.init', but its superclass is not a model; a model class can inherit only from another '@Model' class"
        case .modelGenericClass(let name):
            "'@Model' cannot be applied to generic class '\(name)'"
        case .letProperty(let name):
            "'@Model' cannot persist 'let' property '\(name)'; declare it with 'var', or mark it '@Transient'"
        case .missingTypeAnnotation(let name):
            "'@Model' needs the type of stored property '\(name)' written out"
        case .propertyObservers(let name):
            "'@Model' cannot persist property '\(name)' with 'willSet' or 'didSet' observers"
        case .multipleBindings:
            "'@Model' needs one stored property per 'var' declaration"
        case .storedPropertyInIfConfig:
            "'@Model' cannot persist stored properties declared inside '#if'; declare them outside it"
        case .transientRequiresDefault(let name):
            "'@Transient' property '\(name)' needs a default value, which fetched models take"
        case .requiresStoredProperty(let macro, let name):
            "'@\(macro)' can only be applied to a stored instance property\(name.map { "; '\($0)' is not one" } ?? "")"
        case .transientWithSchemaMacro(let name, let other):
            "'@Transient' property '\(name)' is not persisted, so '@\(other)' does not apply to it"
        case .attributeAndRelationship(let name):
            "Property '\(name)' cannot be both an '@Attribute' and a '@Relationship'"
        case .uniqueUnsupportedType(let name, let type):
            "'.unique' is not supported on property '\(name)' of type '\(type)'; "
                + "a unique attribute must be numeric, String or UUID"
        case .relationshipRequiresModel(let name, let type):
            "'@Relationship' cannot be applied to property '\(name)' of type '\(type)'; "
                + "a relationship refers to '@Model' classes"
        case .uniqueToManyRelationship(let name):
            "'.unique' is not supported on to-many relationship '\(name)'; only a to-one relationship can be unique"
        case .modelActorRequiresActor(let keyword, let name):
            "'@ModelActor' cannot be applied to \(keyword)\(name.map { " '\($0)'" } ?? ""); apply it to an actor"
        case .keyPathListOutsideModel(let macro):
            "'\(macro)' can only be used in the body of a '@Model' class"
        case .keyPathListOtherModel(let macro, let written, let model):
            "'\(macro)<\(written)>' in model '\(model)' must name '\(model)'"
        case .keyPathListsMissing(let macro):
            "'\(macro)' needs at least one list of key paths, such as '[\\.name]'"
        case .keyPathListLiteral(let macro):
            "'\(macro)' takes lists of key paths written out, such as '[\\.name, \\.startDate]'"
        case .emptyKeyPathList(let macro):
            "'\(macro)' cannot take an empty list; each list names at least one property"
        case .keyPathToProperty(let macro, let text):
            "'\(macro)' takes key paths to one property each, such as '\\.name'; '\(text)' is not one"
        case .unsupportedIndexKind(let kind):
            "'#Index' supports '.binary' indexes only; '.\(kind)' is not supported"
        case .keyPathNotPersisted(let macro, let name, let model):
            "'\(macro)' key path '\\.\(name)' does not name a stored attribute or to-one relationship of '\(model)'"
        case .keyPathToArray(let macro, let name, let model):
            "'\(macro)' key path '\\.\(name)' names an array; '\(name)' of '\(model)' is a to-many relationship "
                + "or an array attribute, and a constraint or index takes single values"
        case .uniqueKeyPathUnsupportedType(let name, let type):
            "'#Unique' key path '\\.\(name)' names '\(name)' of type '\(type)'; "
                + "a unique constraint on one property must be numeric, String or UUID"
        }
    }

    var id: String {
        switch self {
        case .modelRequiresClass: "modelRequiresClass"
        case .modelSubclassWithoutSuperInit: "modelSubclassWithoutSuperInit"
        case .modelSuperclassNotModel: "modelSuperclassNotModel"
        case .modelGenericClass: "modelGenericClass"
        case .letProperty: "modelLetProperty"
        case .missingTypeAnnotation: "modelMissingTypeAnnotation"
        case .propertyObservers: "modelPropertyObservers"
        case .multipleBindings: "modelMultipleBindings"
        case .storedPropertyInIfConfig: "modelStoredPropertyInIfConfig"
        case .transientRequiresDefault: "transientRequiresDefault"
        case .requiresStoredProperty: "requiresStoredProperty"
        case .transientWithSchemaMacro: "transientWithSchemaMacro"
        case .attributeAndRelationship: "attributeAndRelationship"
        case .uniqueUnsupportedType: "uniqueUnsupportedType"
        case .relationshipRequiresModel: "relationshipRequiresModel"
        case .uniqueToManyRelationship: "uniqueToManyRelationship"
        case .modelActorRequiresActor: "modelActorRequiresActor"
        case .keyPathListOutsideModel: "keyPathListOutsideModel"
        case .keyPathListOtherModel: "keyPathListOtherModel"
        case .keyPathListsMissing: "keyPathListsMissing"
        case .keyPathListLiteral: "keyPathListLiteral"
        case .emptyKeyPathList: "emptyKeyPathList"
        case .keyPathToProperty: "keyPathToProperty"
        case .unsupportedIndexKind: "unsupportedIndexKind"
        case .keyPathNotPersisted: "keyPathNotPersisted"
        case .keyPathToArray: "keyPathToArray"
        case .uniqueKeyPathUnsupportedType: "uniqueKeyPathUnsupportedType"
        }
    }

    var diagnosticID: MessageID {
        MessageID(domain: "Logbook", id: id)
    }

    var severity: DiagnosticSeverity { .error }

    /// The diagnostic, attached to a node, with fix-its.
    func diagnose(at node: some SyntaxProtocol, fixIts: [FixIt] = []) -> Diagnostic {
        Diagnostic(node: Syntax(node), message: self, fixIts: fixIts)
    }
}

/// The messages of the fix-its the macros offer.
enum LogbookFixIt: FixItMessage {
    case replaceLetWithVar
    case insertDefault(String)
    case insertTypeAnnotation(String)

    var message: String {
        switch self {
        case .replaceLetWithVar: "Replace 'let' with 'var'"
        case .insertDefault(let value): "Insert ' = \(value)'"
        case .insertTypeAnnotation(let type): "Insert ': \(type)'"
        }
    }

    var fixItID: MessageID {
        switch self {
        case .replaceLetWithVar: MessageID(domain: "Logbook", id: "replaceLetWithVar")
        case .insertDefault: MessageID(domain: "Logbook", id: "insertDefault")
        case .insertTypeAnnotation: MessageID(domain: "Logbook", id: "insertTypeAnnotation")
        }
    }
}
