import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// `@Model`, `#Unique` and `#Index`, without `@_LogbookPersistedProperty`, whose own tests
/// cover it.
private var modelAndLists: [String: MacroSpec] {
    logbookMacros.filter { $0.key != "_LogbookPersistedProperty" }
}

/// The members `@Model` adds to a class `Tag` with the persisted properties `names`, its
/// binding given `keyPathArguments`.
private func tagMembers(_ names: [String], keyPathArguments: String) -> String {
    let properties = names.map { "                Tag._$property_\($0)()," }.joined(separator: "\n")
    let decodes = names.enumerated().map { index, name in
        "        self._\(name) = try Logbook._$ModelStorage._$decode(&values, \(index), Tag.self)"
    }.joined(separator: "\n")
    return #"""
            @exclusivity(unchecked) public var _$observationRegistrar = Logbook._$ModelObservationRegistrar()

            @exclusivity(unchecked) public var _$storage = Logbook._$ModelStorage()

            private static let _$bindingBoxStorage = Logbook._$ModelBindingBox<Tag>(
                Logbook._$ModelBinding<Tag>(
                    entityName: "Tag",
                    properties: [
        \#(properties)
                    ]\#(keyPathArguments)
                )
            )

            public static var _$bindingBox: Logbook._$AnyModelBinding {
                _$bindingBoxStorage
            }

            public init(_$storage storage: consuming Logbook._$ModelStorage, values: inout [Logbook.AttributeValue]) throws {
                self._$storage = consume storage
        \#(decodes)
            }

            public var _$storedNumber: UInt64? {
                Logbook._$ModelStorage._$storedNumber(of: _$storage)
            }
        """#
}

struct UniqueIndexMacroTests {
    // MARK: - Expansion

    @Test func modelRecordsEveryUniqueAndIndexListInItsBinding() {
        assertExpansion(
            #"""
            @Model
            final class Tag {
                #Unique<Tag>([\.name, \.day], [\Tag.code])
                #Index<Tag>([\.day], [\.name, \.day])
                var name: String
                var day: Date
                var code: Int
            }
            """#,
            expandedSource: #"""
                final class Tag {
                    @_LogbookPersistedProperty(0)
                    var name: String
                    @_LogbookPersistedProperty(1)
                    var day: Date
                    @_LogbookPersistedProperty(2)
                    var code: Int

                \#(tagMembers(["name", "day", "code"], keyPathArguments: #"""
                ,
                            uniquenessConstraints: [["name", "day"], ["code"]],
                            indexes: [["day"], ["name", "day"]]
                """#))
                }

                extension Tag: Logbook.PersistentModel {
                }
                """#,
            macros: modelAndLists
        )
    }

    @Test func readsSwiftDatasBinarySpellingOfAnIndex() {
        assertExpansion(
            #"""
            @Model
            final class Tag {
                #Index<Tag>(.binary([\.day]))
                var day: Date
            }
            """#,
            expandedSource: #"""
                final class Tag {
                    @_LogbookPersistedProperty(0)
                    var day: Date

                \#(tagMembers(["day"], keyPathArguments: #"""
                ,
                            indexes: [["day"]]
                """#))
                }

                extension Tag: Logbook.PersistentModel {
                }
                """#,
            macros: modelAndLists
        )
    }

    // MARK: - Diagnostics

    @Test(arguments: ["Unique", "Index"])
    func isAnErrorOutsideAModelClass(macro: String) {
        assertExpansion(
            #"""
            final class Tag {
                #\#(macro)<Tag>([\.name])
                var name: String = ""
            }
            """#,
            expandedSource: #"""
                final class Tag {
                    var name: String = ""
                }
                """#,
            diagnostics: [
                logbookDiagnostic(
                    "keyPathListOutsideModel",
                    "'#\(macro)' can only be used in the body of a '@Model' class",
                    line: 2,
                    column: 6
                )
            ],
            macros: modelAndLists
        )
    }

    @Test func isAnErrorForAnEmptyListOrNone() {
        assertExpansion(
            #"""
            @Model
            final class Tag {
                #Unique<Tag>([])
                #Index<Tag>()
                var name: String
            }
            """#,
            expandedSource: #"""
                final class Tag {
                    @_LogbookPersistedProperty(0)
                    var name: String

                \#(tagMembers(["name"], keyPathArguments: ""))
                }

                extension Tag: Logbook.PersistentModel {
                }
                """#,
            diagnostics: [
                logbookDiagnostic(
                    "emptyKeyPathList",
                    "'#Unique' cannot take an empty list; each list names at least one property",
                    line: 3,
                    column: 18
                ),
                logbookDiagnostic(
                    "keyPathListsMissing",
                    #"'#Index' needs at least one list of key paths, such as '[\.name]'"#,
                    line: 4,
                    column: 6
                ),
            ],
            macros: modelAndLists
        )
    }

    @Test func isAnErrorForAKeyPathThatNamesNoPersistedProperty() {
        assertExpansion(
            #"""
            @Model
            final class Tag {
                #Unique<Tag>([\.name, \.views])
                #Index<Tag>([\.summary])
                var name: String
                @Transient var views: Int = 0
                var summary: String { name }
            }
            """#,
            expandedSource: #"""
                final class Tag {
                    @_LogbookPersistedProperty(0)
                    var name: String
                    var views: Int = 0
                    var summary: String { name }

                \#(tagMembers(["name"], keyPathArguments: ""))
                }

                extension Tag: Logbook.PersistentModel {
                }
                """#,
            diagnostics: [
                logbookDiagnostic(
                    "keyPathNotPersisted",
                    #"'#Unique' key path '\.views' does not name a stored attribute or to-one relationship of 'Tag'"#,
                    line: 3,
                    column: 27
                ),
                logbookDiagnostic(
                    "keyPathNotPersisted",
                    #"'#Index' key path '\.summary' does not name a stored attribute or to-one relationship of 'Tag'"#,
                    line: 4,
                    column: 18
                ),
            ],
            macros: modelAndLists
        )
    }

    @Test func isAnErrorForAKeyPathToAnArray() {
        assertExpansion(
            #"""
            @Model
            final class Tag {
                #Unique<Tag>([\.name, \.items])
                var name: String
                var items: [Item]? = []
            }
            """#,
            expandedSource: #"""
                final class Tag {
                    @_LogbookPersistedProperty(0)
                    var name: String
                    @_LogbookPersistedProperty(1)
                    var items: [Item]? = []

                \#(tagMembers(["name", "items"], keyPathArguments: ""))
                }

                extension Tag: Logbook.PersistentModel {
                }
                """#,
            diagnostics: [
                logbookDiagnostic(
                    "keyPathToArray",
                    #"'#Unique' key path '\.items' names an array; 'items' of 'Tag' is a to-many relationship "#
                        + "or an array attribute, and a constraint or index takes single values",
                    line: 3,
                    column: 27
                )
            ],
            macros: modelAndLists
        )
    }

    @Test func isAnErrorForAnotherModelOrAnExpressionThatIsNotAKeyPath() {
        assertExpansion(
            #"""
            @Model
            final class Tag {
                #Unique<Trip>([\.name])
                #Index<Tag>([\.name.count], paths)
                var name: String
            }
            """#,
            expandedSource: #"""
                final class Tag {
                    @_LogbookPersistedProperty(0)
                    var name: String

                \#(tagMembers(["name"], keyPathArguments: #"""
                ,
                            uniquenessConstraints: [["name"]]
                """#))
                }

                extension Tag: Logbook.PersistentModel {
                }
                """#,
            diagnostics: [
                logbookDiagnostic(
                    "keyPathListOtherModel",
                    "'#Unique<Trip>' in model 'Tag' must name 'Tag'",
                    line: 3,
                    column: 13
                ),
                logbookDiagnostic(
                    "keyPathToProperty",
                    #"'#Index' takes key paths to one property each, such as '\.name'; '\.name.count' is not one"#,
                    line: 4,
                    column: 18
                ),
                logbookDiagnostic(
                    "keyPathListLiteral",
                    #"'#Index' takes lists of key paths written out, such as '[\.name, \.startDate]'"#,
                    line: 4,
                    column: 33
                ),
            ],
            macros: modelAndLists
        )
    }

    @Test func aUniqueOnOneKeyPathHasTheTypeRuleOfAttributeUnique() {
        assertExpansion(
            #"""
            @Model
            final class Tag {
                #Unique<Tag>([\.day], [\.name, \.day])
                var name: String
                var day: Date
            }
            """#,
            expandedSource: #"""
                final class Tag {
                    @_LogbookPersistedProperty(0)
                    var name: String
                    @_LogbookPersistedProperty(1)
                    var day: Date

                \#(tagMembers(["name", "day"], keyPathArguments: #"""
                ,
                            uniquenessConstraints: [["name", "day"]]
                """#))
                }

                extension Tag: Logbook.PersistentModel {
                }
                """#,
            diagnostics: [
                logbookDiagnostic(
                    "uniqueKeyPathUnsupportedType",
                    #"'#Unique' key path '\.day' names 'day' of type 'Date'; "#
                        + "a unique constraint on one property must be numeric, String or UUID",
                    line: 3,
                    column: 19
                )
            ],
            macros: modelAndLists
        )
    }

    @Test func isAnErrorForAnRTreeIndex() {
        assertExpansion(
            #"""
            @Model
            final class Tag {
                #Index<Tag>(.rtree([\.name]))
                var name: String
            }
            """#,
            expandedSource: #"""
                final class Tag {
                    @_LogbookPersistedProperty(0)
                    var name: String

                \#(tagMembers(["name"], keyPathArguments: ""))
                }

                extension Tag: Logbook.PersistentModel {
                }
                """#,
            diagnostics: [
                logbookDiagnostic(
                    "unsupportedIndexKind",
                    "'#Index' supports '.binary' indexes only; '.rtree' is not supported",
                    line: 3,
                    column: 17
                )
            ],
            macros: modelAndLists
        )
    }
}
