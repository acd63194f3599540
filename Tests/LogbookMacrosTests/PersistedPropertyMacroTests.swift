import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// `@_LogbookPersistedProperty` alone, as `@Model` attaches it.
private var persistedPropertyOnly: [String: MacroSpec] {
    logbookMacros.filter { $0.key == "_LogbookPersistedProperty" }
}

struct PersistedPropertyMacroTests {
    /// The property becomes accessors over a typed backing field; `_$property_name()` describes it
    /// with the factory for properties without a schema macro.
    @Test func turnsAStoredPropertyIntoTrackedObservedAccessors() {
        assertExpansion(
            #"""
            final class Trip {
                @_LogbookPersistedProperty(2) var name: String
            }
            """#,
            expandedSource: #"""
                final class Trip {
                    var name: String {
                        @storageRestrictions(initializes: _name, accesses: _$storage)
                        init(initialValue) {
                            Logbook._$ModelStorage._$initialValue(initialValue, &_$storage)
                            _name = initialValue
                        }
                        get {
                            _$observationRegistrar.access(self, keyPath: Self._$keyPath_name)
                            if _$storage._$isFaulted(2) {
                                Logbook._$ModelStorage._$resolveFault(self, 2)
                            }
                            return _name
                        }
                        set {
                            if _$storage._$isFaulted(2) {
                                Logbook._$ModelStorage._$resolveFault(self, 2)
                            }
                            let oldValue = _name
                            _$observationRegistrar.withMutation(of: self, keyPath: Self._$keyPath_name) {
                                _name = newValue
                            }
                            Logbook._$ModelStorage._$didSet(self, 2, from: oldValue, to: newValue)
                        }
                    }

                    private var _name: String

                    private static let _$keyPath_name = \Trip.name

                    private static func _$property_name() -> Logbook._$PropertyBinding<Trip> {
                        Logbook._$PropertyBinding<Trip>.property(
                            "name",
                            keyPath: \Trip.name,
                            get: { (model: Trip) -> String in
                                model._name
                            },
                            set: { (model: Trip, value: String) in
                                model._name = value
                            },
                            hasDefaultValue: false
                        )
                    }
                }
                """#,
            macros: persistedPropertyOnly
        )
    }

    /// `T?` and `T!` backing fields are spelled `Optional<T>`, so that they get no implicit
    /// `nil` that would hide the property's own initial value.
    @Test func spellsOptionalBackingFieldsWithoutSugarAndKeepsBackticks() {
        assertExpansion(
            #"""
            final class Trip {
                @_LogbookPersistedProperty(0) var note: String? = "none"
                @_LogbookPersistedProperty(1) var legacy: Int!
                @_LogbookPersistedProperty(2) var `default`: Bool
            }
            """#,
            expandedSource: #"""
                final class Trip {
                    var note: String? {
                        @storageRestrictions(initializes: _note, accesses: _$storage)
                        init(initialValue) {
                            Logbook._$ModelStorage._$initialValue(initialValue, &_$storage)
                            _note = initialValue
                        }
                        get {
                            _$observationRegistrar.access(self, keyPath: Self._$keyPath_note)
                            if _$storage._$isFaulted(0) {
                                Logbook._$ModelStorage._$resolveFault(self, 0)
                            }
                            return _note
                        }
                        set {
                            if _$storage._$isFaulted(0) {
                                Logbook._$ModelStorage._$resolveFault(self, 0)
                            }
                            let oldValue = _note
                            _$observationRegistrar.withMutation(of: self, keyPath: Self._$keyPath_note) {
                                _note = newValue
                            }
                            Logbook._$ModelStorage._$didSet(self, 0, from: oldValue, to: newValue)
                        }
                    }

                    private var _note: Optional<String>

                    private static let _$keyPath_note = \Trip.note

                    private static func _$property_note() -> Logbook._$PropertyBinding<Trip> {
                        Logbook._$PropertyBinding<Trip>.property(
                            "note",
                            keyPath: \Trip.note,
                            get: { (model: Trip) -> Optional<String> in
                                model._note
                            },
                            set: { (model: Trip, value: Optional<String>) in
                                model._note = value
                            },
                            hasDefaultValue: true
                        )
                    }
                    var legacy: Int! {
                        @storageRestrictions(initializes: _legacy, accesses: _$storage)
                        init(initialValue) {
                            Logbook._$ModelStorage._$initialValue(initialValue, &_$storage)
                            _legacy = initialValue
                        }
                        get {
                            _$observationRegistrar.access(self, keyPath: Self._$keyPath_legacy)
                            if _$storage._$isFaulted(1) {
                                Logbook._$ModelStorage._$resolveFault(self, 1)
                            }
                            return _legacy
                        }
                        set {
                            if _$storage._$isFaulted(1) {
                                Logbook._$ModelStorage._$resolveFault(self, 1)
                            }
                            let oldValue = _legacy
                            _$observationRegistrar.withMutation(of: self, keyPath: Self._$keyPath_legacy) {
                                _legacy = newValue
                            }
                            Logbook._$ModelStorage._$didSet(self, 1, from: oldValue, to: newValue)
                        }
                    }

                    private var _legacy: Optional<Int>

                    private static let _$keyPath_legacy = \Trip.legacy

                    private static func _$property_legacy() -> Logbook._$PropertyBinding<Trip> {
                        Logbook._$PropertyBinding<Trip>.property(
                            "legacy",
                            keyPath: \Trip.legacy,
                            get: { (model: Trip) -> Optional<Int> in
                                model._legacy
                            },
                            set: { (model: Trip, value: Optional<Int>) in
                                model._legacy = value
                            },
                            hasDefaultValue: true
                        )
                    }
                    var `default`: Bool {
                        @storageRestrictions(initializes: _default, accesses: _$storage)
                        init(initialValue) {
                            Logbook._$ModelStorage._$initialValue(initialValue, &_$storage)
                            _default = initialValue
                        }
                        get {
                            _$observationRegistrar.access(self, keyPath: Self._$keyPath_default)
                            if _$storage._$isFaulted(2) {
                                Logbook._$ModelStorage._$resolveFault(self, 2)
                            }
                            return _default
                        }
                        set {
                            if _$storage._$isFaulted(2) {
                                Logbook._$ModelStorage._$resolveFault(self, 2)
                            }
                            let oldValue = _default
                            _$observationRegistrar.withMutation(of: self, keyPath: Self._$keyPath_default) {
                                _default = newValue
                            }
                            Logbook._$ModelStorage._$didSet(self, 2, from: oldValue, to: newValue)
                        }
                    }

                    private var _default: Bool

                    private static let _$keyPath_default = \Trip.`default`

                    private static func _$property_default() -> Logbook._$PropertyBinding<Trip> {
                        Logbook._$PropertyBinding<Trip>.property(
                            "default",
                            keyPath: \Trip.`default`,
                            get: { (model: Trip) -> Bool in
                                model._default
                            },
                            set: { (model: Trip, value: Bool) in
                                model._default = value
                            },
                            hasDefaultValue: false
                        )
                    }
                }
                """#,
            macros: persistedPropertyOnly
        )
    }

    /// `@Attribute` and `@Relationship` arguments are appended verbatim to the factory call,
    /// whose overloads mirror the macros; `.unique` and `.transformable(by:)` pick their own
    /// factories so that the type checker can reject unsuitable types.
    @Test func passesTheSchemaMacrosArgumentsToTheMatchingFactory() {
        assertExpansion(
            #"""
            final class Trip {
                @_LogbookPersistedProperty(0) @Attribute(.unique, originalName: "title") var name: String
                @_LogbookPersistedProperty(1) @Attribute(.externalStorage, .transformable(by: ColorTransformer.self)) var color: Color?
                @_LogbookPersistedProperty(2) @Attribute(originalName: "start_date") var startDate: Date
                @_LogbookPersistedProperty(3) @Relationship(deleteRule: .cascade, inverse: \Item.trip) var items: [Item] = []
                @_LogbookPersistedProperty(4) @Relationship(.cascade) var stay: Stay?
            }
            """#,
            expandedSource: #"""
                final class Trip {
                    @Attribute(.unique, originalName: "title") var name: String {
                        @storageRestrictions(initializes: _name, accesses: _$storage)
                        init(initialValue) {
                            Logbook._$ModelStorage._$initialValue(initialValue, &_$storage)
                            _name = initialValue
                        }
                        get {
                            _$observationRegistrar.access(self, keyPath: Self._$keyPath_name)
                            if _$storage._$isFaulted(0) {
                                Logbook._$ModelStorage._$resolveFault(self, 0)
                            }
                            return _name
                        }
                        set {
                            if _$storage._$isFaulted(0) {
                                Logbook._$ModelStorage._$resolveFault(self, 0)
                            }
                            let oldValue = _name
                            _$observationRegistrar.withMutation(of: self, keyPath: Self._$keyPath_name) {
                                _name = newValue
                            }
                            Logbook._$ModelStorage._$didSet(self, 0, from: oldValue, to: newValue)
                        }
                    }

                    private var _name: String

                    private static let _$keyPath_name = \Trip.name

                    private static func _$property_name() -> Logbook._$PropertyBinding<Trip> {
                        Logbook._$PropertyBinding<Trip>.uniqueAttribute(
                            "name",
                            keyPath: \Trip.name,
                            get: { (model: Trip) -> String in
                                model._name
                            },
                            set: { (model: Trip, value: String) in
                                model._name = value
                            },
                            hasDefaultValue: false,
                            .unique,
                            originalName: "title"
                        )
                    }
                    @Attribute(.externalStorage, .transformable(by: ColorTransformer.self)) var color: Color? {
                        @storageRestrictions(initializes: _color, accesses: _$storage)
                        init(initialValue) {
                            Logbook._$ModelStorage._$initialValue(initialValue, &_$storage)
                            _color = initialValue
                        }
                        get {
                            _$observationRegistrar.access(self, keyPath: Self._$keyPath_color)
                            if _$storage._$isFaulted(1) {
                                Logbook._$ModelStorage._$resolveFault(self, 1)
                            }
                            return _color
                        }
                        set {
                            if _$storage._$isFaulted(1) {
                                Logbook._$ModelStorage._$resolveFault(self, 1)
                            }
                            let oldValue = _color
                            _$observationRegistrar.withMutation(of: self, keyPath: Self._$keyPath_color) {
                                _color = newValue
                            }
                            Logbook._$ModelStorage._$didSet(self, 1, from: oldValue, to: newValue)
                        }
                    }

                    private var _color: Optional<Color>

                    private static let _$keyPath_color = \Trip.color

                    private static func _$property_color() -> Logbook._$PropertyBinding<Trip> {
                        Logbook._$PropertyBinding<Trip>.transformableAttribute(
                            "color",
                            keyPath: \Trip.color,
                            get: { (model: Trip) -> Optional<Color> in
                                model._color
                            },
                            set: { (model: Trip, value: Optional<Color>) in
                                model._color = value
                            },
                            hasDefaultValue: true,
                            transformer: ColorTransformer.self,
                            .externalStorage,
                            .transformable(by: ColorTransformer.self)
                        )
                    }
                    @Attribute(originalName: "start_date") var startDate: Date {
                        @storageRestrictions(initializes: _startDate, accesses: _$storage)
                        init(initialValue) {
                            Logbook._$ModelStorage._$initialValue(initialValue, &_$storage)
                            _startDate = initialValue
                        }
                        get {
                            _$observationRegistrar.access(self, keyPath: Self._$keyPath_startDate)
                            if _$storage._$isFaulted(2) {
                                Logbook._$ModelStorage._$resolveFault(self, 2)
                            }
                            return _startDate
                        }
                        set {
                            if _$storage._$isFaulted(2) {
                                Logbook._$ModelStorage._$resolveFault(self, 2)
                            }
                            let oldValue = _startDate
                            _$observationRegistrar.withMutation(of: self, keyPath: Self._$keyPath_startDate) {
                                _startDate = newValue
                            }
                            Logbook._$ModelStorage._$didSet(self, 2, from: oldValue, to: newValue)
                        }
                    }

                    private var _startDate: Date

                    private static let _$keyPath_startDate = \Trip.startDate

                    private static func _$property_startDate() -> Logbook._$PropertyBinding<Trip> {
                        Logbook._$PropertyBinding<Trip>.attribute(
                            "startDate",
                            keyPath: \Trip.startDate,
                            get: { (model: Trip) -> Date in
                                model._startDate
                            },
                            set: { (model: Trip, value: Date) in
                                model._startDate = value
                            },
                            hasDefaultValue: false,
                            originalName: "start_date"
                        )
                    }
                    @Relationship(deleteRule: .cascade, inverse: \Item.trip) var items: [Item] {
                        @storageRestrictions(initializes: _items, accesses: _$storage)
                        init(initialValue) {
                            Logbook._$ModelStorage._$initialValue(initialValue, &_$storage)
                            _items = initialValue
                        }
                        get {
                            _$observationRegistrar.access(self, keyPath: Self._$keyPath_items)
                            if _$storage._$isFaulted(3) {
                                Logbook._$ModelStorage._$resolveFault(self, 3)
                            }
                            return _items
                        }
                        set {
                            if _$storage._$isFaulted(3) {
                                Logbook._$ModelStorage._$resolveFault(self, 3)
                            }
                            let oldValue = _items
                            _$observationRegistrar.withMutation(of: self, keyPath: Self._$keyPath_items) {
                                _items = newValue
                            }
                            Logbook._$ModelStorage._$didSet(self, 3, from: oldValue, to: newValue)
                        }
                    }

                    private var _items: [Item]

                    private static let _$keyPath_items = \Trip.items

                    private static func _$property_items() -> Logbook._$PropertyBinding<Trip> {
                        Logbook._$PropertyBinding<Trip>.relationship(
                            "items",
                            keyPath: \Trip.items,
                            get: { (model: Trip) -> [Item] in
                                model._items
                            },
                            set: { (model: Trip, value: [Item]) in
                                model._items = value
                            },
                            hasDefaultValue: true,
                            deleteRule: .cascade,
                            inverse: \Item.trip
                        )
                    }
                    @Relationship(.cascade) var stay: Stay? {
                        @storageRestrictions(initializes: _stay, accesses: _$storage)
                        init(initialValue) {
                            Logbook._$ModelStorage._$initialValue(initialValue, &_$storage)
                            _stay = initialValue
                        }
                        get {
                            _$observationRegistrar.access(self, keyPath: Self._$keyPath_stay)
                            if _$storage._$isFaulted(4) {
                                Logbook._$ModelStorage._$resolveFault(self, 4)
                            }
                            return _stay
                        }
                        set {
                            if _$storage._$isFaulted(4) {
                                Logbook._$ModelStorage._$resolveFault(self, 4)
                            }
                            let oldValue = _stay
                            _$observationRegistrar.withMutation(of: self, keyPath: Self._$keyPath_stay) {
                                _stay = newValue
                            }
                            Logbook._$ModelStorage._$didSet(self, 4, from: oldValue, to: newValue)
                        }
                    }

                    private var _stay: Optional<Stay>

                    private static let _$keyPath_stay = \Trip.stay

                    private static func _$property_stay() -> Logbook._$PropertyBinding<Trip> {
                        Logbook._$PropertyBinding<Trip>.relationship(
                            "stay",
                            keyPath: \Trip.stay,
                            get: { (model: Trip) -> Optional<Stay> in
                                model._stay
                            },
                            set: { (model: Trip, value: Optional<Stay>) in
                                model._stay = value
                            },
                            hasDefaultValue: true,
                            .cascade
                        )
                    }
                }
                """#,
            macros: persistedPropertyOnly
        )
    }

    /// Only `@Model` attaches this macro; anywhere but in a class it does nothing.
    @Test func expandsToNothingOutsideAClass() {
        assertExpansion(
            #"""
            struct Loose {
                @_LogbookPersistedProperty(0) var name: String
            }
            """#,
            expandedSource: #"""
                struct Loose {
                    var name: String
                }
                """#,
            macros: persistedPropertyOnly
        )
    }
}
