import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// The lists of key paths of a `#Unique` or `#Index`, as written, and what is wrong with them.
///
/// Both macros take lists of key paths to properties of the model (`[\.name, \.startDate]`);
/// `#Index` also takes each list wrapped in `.binary(…)`. A key path names one property,
/// written `\.name` or `\Trip.name`.
struct KeyPathLists {
    /// One key path: the property it names, and the expression, for diagnostics.
    struct Path {
        let name: String
        let expression: KeyPathExprSyntax
    }

    /// The macro, as written in messages: `#Unique` or `#Index`.
    let macro: String
    /// The well-formed lists, in order; a list with an ill-formed key path is left out.
    private(set) var lists: [[Path]] = []
    /// What is wrong with the arguments.
    private(set) var diagnostics: [Diagnostic] = []

    /// Reads the arguments of `node`, a `#Unique` or `#Index` expansion.
    init(_ node: some FreestandingMacroExpansionSyntax) {
        let macro = "#" + node.macroName.text
        self.macro = macro
        if node.arguments.isEmpty {
            diagnostics.append(LogbookDiagnostic.keyPathListsMissing(macro: macro).diagnose(at: node.macroName))
        }
        for argument in node.arguments {
            var expression = argument.expression
            if macro == "#Index", let call = expression.as(FunctionCallExprSyntax.self),
                let kind = call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
            {
                guard kind == "binary", call.arguments.count == 1, let inner = call.arguments.first?.expression else {
                    diagnostics.append(LogbookDiagnostic.unsupportedIndexKind(kind: kind).diagnose(at: call))
                    continue
                }
                expression = inner
            }
            guard let array = expression.as(ArrayExprSyntax.self) else {
                diagnostics.append(LogbookDiagnostic.keyPathListLiteral(macro: macro).diagnose(at: expression))
                continue
            }
            guard !array.elements.isEmpty else {
                diagnostics.append(LogbookDiagnostic.emptyKeyPathList(macro: macro).diagnose(at: array))
                continue
            }
            var list: [Path] = []
            for element in array.elements {
                guard let path = Self.path(element.expression) else {
                    diagnostics.append(
                        LogbookDiagnostic.keyPathToProperty(macro: macro, text: element.expression.trimmedDescription)
                            .diagnose(at: element.expression)
                    )
                    continue
                }
                list.append(path)
            }
            if list.count == array.elements.count { lists.append(list) }
        }
    }

    /// The property a key path names, when it names exactly one by its name.
    private static func path(_ expression: ExprSyntax) -> Path? {
        guard let keyPath = expression.as(KeyPathExprSyntax.self), keyPath.components.count == 1,
            let component = keyPath.components.first,
            case .property(let property) = component.component,
            property.genericArgumentClause == nil
        else { return nil }
        return Path(name: property.declName.baseName.unescapedText, expression: keyPath)
    }
}

extension MemberBlockSyntax {
    /// Whether an initializer among the members calls `super.init`: what tells the macros that
    /// see a model class's syntax alone that it is a subclass of a model class.
    var callsSuperInit: Bool {
        members.contains { member in
            guard let body = member.decl.as(InitializerDeclSyntax.self)?.body else { return false }
            var previous: [TokenKind] = []
            for token in body.tokens(viewMode: .sourceAccurate) {
                if token.tokenKind == .keyword(.`init`), Array(previous.suffix(2)) == [.keyword(.super), .period] {
                    return true
                }
                previous.append(token.tokenKind)
            }
            return false
        }
    }

    /// The `#Unique` and `#Index` expansions among the members, in order.
    var keyPathListMacros: [MacroExpansionDeclSyntax] {
        members.compactMap { member in
            guard let expansion = member.decl.as(MacroExpansionDeclSyntax.self),
                ["Unique", "Index"].contains(expansion.macroName.text)
            else { return nil }
            return expansion
        }
    }
}
