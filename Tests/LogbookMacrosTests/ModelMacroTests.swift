import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// `@Model` on its own: the member, member-attribute and extension roles, and every misuse it
/// diagnoses. `@_LogbookPersistedProperty` is left unexpanded here; its own tests cover it.
private var modelOnly: [String: MacroSpec] {
    logbookMacros.filter { $0.key != "_LogbookPersistedProperty" }
}

struct ModelMacroTests {
    // MARK: - Expansion

    /// The whole expansion of the talk's final Trip, every macro included. The test support
    /// drops a property's initial value when accessors are added; the compiler keeps it, since
    /// the property has an `init` accessor.
    @Test func expandsTheTalksTripWithEveryMacro() {
        assertExpansion(
            #"""
            @Model
            final class Trip {
                @Attribute(.unique) var name: String
                @Attribute(originalName: "start_date") var startDate: Date
                @Relationship(.cascade)
                var bucketList: [BucketListItem]? = []
                var livingAccommodation: LivingAccommodation?
                @Transient
                var tripViews: Int = 0

                init(name: String, startDate: Date) {
                    self.name = name
                    self.startDate = startDate
                }
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
                            .unique
                        )
                    }
                    var startDate: Date {
                        @storageRestrictions(initializes: _startDate, accesses: _$storage)
                        init(initialValue) {
                            Logbook._$ModelStorage._$initialValue(initialValue, &_$storage)
                            _startDate = initialValue
                        }
                        get {
                            _$observationRegistrar.access(self, keyPath: Self._$keyPath_startDate)
                            if _$storage._$isFaulted(1) {
                                Logbook._$ModelStorage._$resolveFault(self, 1)
                            }
                            return _startDate
                        }
                        set {
                            if _$storage._$isFaulted(1) {
                                Logbook._$ModelStorage._$resolveFault(self, 1)
                            }
                            let oldValue = _startDate
                            _$observationRegistrar.withMutation(of: self, keyPath: Self._$keyPath_startDate) {
                                _startDate = newValue
                            }
                            Logbook._$ModelStorage._$didSet(self, 1, from: oldValue, to: newValue)
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
                    var bucketList: [BucketListItem]? {
                        @storageRestrictions(initializes: _bucketList, accesses: _$storage)
                        init(initialValue) {
                            Logbook._$ModelStorage._$initialValue(initialValue, &_$storage)
                            _bucketList = initialValue
                        }
                        get {
                            _$observationRegistrar.access(self, keyPath: Self._$keyPath_bucketList)
                            if _$storage._$isFaulted(2) {
                                Logbook._$ModelStorage._$resolveFault(self, 2)
                            }
                            return _bucketList
                        }
                        set {
                            if _$storage._$isFaulted(2) {
                                Logbook._$ModelStorage._$resolveFault(self, 2)
                            }
                            let oldValue = _bucketList
                            _$observationRegistrar.withMutation(of: self, keyPath: Self._$keyPath_bucketList) {
                                _bucketList = newValue
                            }
                            Logbook._$ModelStorage._$didSet(self, 2, from: oldValue, to: newValue)
                        }
                    }

                    private var _bucketList: Optional<[BucketListItem]>

                    private static let _$keyPath_bucketList = \Trip.bucketList

                    private static func _$property_bucketList() -> Logbook._$PropertyBinding<Trip> {
                        Logbook._$PropertyBinding<Trip>.relationship(
                            "bucketList",
                            keyPath: \Trip.bucketList,
                            get: { (model: Trip) -> Optional<[BucketListItem]> in
                                model._bucketList
                            },
                            set: { (model: Trip, value: Optional<[BucketListItem]>) in
                                model._bucketList = value
                            },
                            hasDefaultValue: true,
                            .cascade
                        )
                    }
                    var livingAccommodation: LivingAccommodation? {
                        @storageRestrictions(initializes: _livingAccommodation, accesses: _$storage)
                        init(initialValue) {
                            Logbook._$ModelStorage._$initialValue(initialValue, &_$storage)
                            _livingAccommodation = initialValue
                        }
                        get {
                            _$observationRegistrar.access(self, keyPath: Self._$keyPath_livingAccommodation)
                            if _$storage._$isFaulted(3) {
                                Logbook._$ModelStorage._$resolveFault(self, 3)
                            }
                            return _livingAccommodation
                        }
                        set {
                            if _$storage._$isFaulted(3) {
                                Logbook._$ModelStorage._$resolveFault(self, 3)
                            }
                            let oldValue = _livingAccommodation
                            _$observationRegistrar.withMutation(of: self, keyPath: Self._$keyPath_livingAccommodation) {
                                _livingAccommodation = newValue
                            }
                            Logbook._$ModelStorage._$didSet(self, 3, from: oldValue, to: newValue)
                        }
                    }

                    private var _livingAccommodation: Optional<LivingAccommodation>

                    private static let _$keyPath_livingAccommodation = \Trip.livingAccommodation

                    private static func _$property_livingAccommodation() -> Logbook._$PropertyBinding<Trip> {
                        Logbook._$PropertyBinding<Trip>.property(
                            "livingAccommodation",
                            keyPath: \Trip.livingAccommodation,
                            get: { (model: Trip) -> Optional<LivingAccommodation> in
                                model._livingAccommodation
                            },
                            set: { (model: Trip, value: Optional<LivingAccommodation>) in
                                model._livingAccommodation = value
                            },
                            hasDefaultValue: true
                        )
                    }
                    var tripViews: Int = 0

                    init(name: String, startDate: Date) {
                        self.name = name
                        self.startDate = startDate
                    }

                    @exclusivity(unchecked) public var _$observationRegistrar = Logbook._$ModelObservationRegistrar()

                    @exclusivity(unchecked) public var _$storage = Logbook._$ModelStorage()

                    private static let _$bindingBoxStorage = Logbook._$ModelBindingBox<Trip>(
                        Logbook._$ModelBinding<Trip>(
                            entityName: "Trip",
                            properties: [
                                Trip._$property_name(),
                                Trip._$property_startDate(),
                                Trip._$property_bucketList(),
                                Trip._$property_livingAccommodation(),
                            ]
                        )
                    )

                    public static var _$bindingBox: Logbook._$AnyModelBinding {
                        _$bindingBoxStorage
                    }

                    public init(_$storage storage: consuming Logbook._$ModelStorage, values: inout [Logbook.AttributeValue]) throws {
                        self._$storage = consume storage
                        self._name = try Logbook._$ModelStorage._$decode(&values, 0, Trip.self)
                        self._startDate = try Logbook._$ModelStorage._$decode(&values, 1, Trip.self)
                        self._bucketList = try Logbook._$ModelStorage._$decode(&values, 2, Trip.self)
                        self._livingAccommodation = try Logbook._$ModelStorage._$decode(&values, 3, Trip.self)
                    }

                    public var _$storedNumber: UInt64? {
                        Logbook._$ModelStorage._$storedNumber(of: _$storage)
                    }
                }

                extension Trip: Logbook.PersistentModel {
                }
                """#
        )
    }

    @Test func attachesPersistedPropertyToEachStoredVariableInDeclarationOrder() {
        assertExpansion(
            #"""
            @Model
            final class Item {
                static var count = 0
                var title: String
                var summary: String { title.uppercased() }
                lazy var cache: [String] = []
                @Transient var views: Int = 0
                var rank: Int = 1
                func touch() {}
                init(title: String) { self.title = title }
            }
            """#,
            expandedSource: #"""
                final class Item {
                    static var count = 0
                    @_LogbookPersistedProperty(0)
                    var title: String
                    var summary: String { title.uppercased() }
                    lazy var cache: [String] = []
                    var views: Int = 0
                    @_LogbookPersistedProperty(1)
                    var rank: Int = 1
                    func touch() {}
                    init(title: String) { self.title = title }

                    @exclusivity(unchecked) public var _$observationRegistrar = Logbook._$ModelObservationRegistrar()

                    @exclusivity(unchecked) public var _$storage = Logbook._$ModelStorage()

                    private static let _$bindingBoxStorage = Logbook._$ModelBindingBox<Item>(
                        Logbook._$ModelBinding<Item>(
                            entityName: "Item",
                            properties: [
                                Item._$property_title(),
                                Item._$property_rank(),
                            ]
                        )
                    )

                    public static var _$bindingBox: Logbook._$AnyModelBinding {
                        _$bindingBoxStorage
                    }

                    public init(_$storage storage: consuming Logbook._$ModelStorage, values: inout [Logbook.AttributeValue]) throws {
                        self._$storage = consume storage
                        self._title = try Logbook._$ModelStorage._$decode(&values, 0, Item.self)
                        self._rank = try Logbook._$ModelStorage._$isMissing(values, 1) ? (1) : Logbook._$ModelStorage._$decode(&values, 1, Item.self)
                    }

                    public var _$storedNumber: UInt64? {
                        Logbook._$ModelStorage._$storedNumber(of: _$storage)
                    }
                }

                extension Item: Logbook.PersistentModel {
                }
                """#,
            macros: modelOnly
        )
    }

    @Test func addsAnEmptyInitializerWhenNoneIsDeclaredAndEveryPropertyHasADefault() {
        assertExpansion(
            #"""
            @Model
            final class Settings {
                var theme: String = "light"
                var owner: Person?
            }
            """#,
            expandedSource: #"""
                final class Settings {
                    @_LogbookPersistedProperty(0)
                    var theme: String = "light"
                    @_LogbookPersistedProperty(1)
                    var owner: Person?

                    @exclusivity(unchecked) public var _$observationRegistrar = Logbook._$ModelObservationRegistrar()

                    @exclusivity(unchecked) public var _$storage = Logbook._$ModelStorage()

                    private static let _$bindingBoxStorage = Logbook._$ModelBindingBox<Settings>(
                        Logbook._$ModelBinding<Settings>(
                            entityName: "Settings",
                            properties: [
                                Settings._$property_theme(),
                                Settings._$property_owner(),
                            ]
                        )
                    )

                    public static var _$bindingBox: Logbook._$AnyModelBinding {
                        _$bindingBoxStorage
                    }

                    public init(_$storage storage: consuming Logbook._$ModelStorage, values: inout [Logbook.AttributeValue]) throws {
                        self._$storage = consume storage
                        self._theme = try Logbook._$ModelStorage._$isMissing(values, 0) ? ("light") : Logbook._$ModelStorage._$decode(&values, 0, Settings.self)
                        self._owner = try Logbook._$ModelStorage._$decode(&values, 1, Settings.self)
                    }

                    public var _$storedNumber: UInt64? {
                        Logbook._$ModelStorage._$storedNumber(of: _$storage)
                    }

                    init() {
                    }
                }

                extension Settings: Logbook.PersistentModel {
                }
                """#,
            macros: modelOnly
        )
    }

    /// `Optional<T>` written out, unlike `T?`, gets no implicit `nil`.
    @Test func addsNoInitializerWhenAPropertyHasNoDefault() {
        assertExpansion(
            #"""
            @Model
            final class Tag {
                var name: Optional<String>
            }
            """#,
            expandedSource: #"""
                final class Tag {
                    @_LogbookPersistedProperty(0)
                    var name: Optional<String>

                    @exclusivity(unchecked) public var _$observationRegistrar = Logbook._$ModelObservationRegistrar()

                    @exclusivity(unchecked) public var _$storage = Logbook._$ModelStorage()

                    private static let _$bindingBoxStorage = Logbook._$ModelBindingBox<Tag>(
                        Logbook._$ModelBinding<Tag>(
                            entityName: "Tag",
                            properties: [
                                Tag._$property_name(),
                            ]
                        )
                    )

                    public static var _$bindingBox: Logbook._$AnyModelBinding {
                        _$bindingBoxStorage
                    }

                    public init(_$storage storage: consuming Logbook._$ModelStorage, values: inout [Logbook.AttributeValue]) throws {
                        self._$storage = consume storage
                        self._name = try Logbook._$ModelStorage._$decode(&values, 0, Tag.self)
                    }

                    public var _$storedNumber: UInt64? {
                        Logbook._$ModelStorage._$storedNumber(of: _$storage)
                    }
                }

                extension Tag: Logbook.PersistentModel {
                }
                """#,
            macros: modelOnly
        )
    }

    @Test func readsTransformableAttributesThroughTheBinding() {
        assertExpansion(
            #"""
            @Model
            final class Swatch {
                @Attribute(.transformable(by: ColorTransformer.self)) var color: Color
                init(color: Color) { self.color = color }
            }
            """#,
            expandedSource: #"""
                final class Swatch {
                    @_LogbookPersistedProperty(0) var color: Color
                    init(color: Color) { self.color = color }

                    @exclusivity(unchecked) public var _$observationRegistrar = Logbook._$ModelObservationRegistrar()

                    @exclusivity(unchecked) public var _$storage = Logbook._$ModelStorage()

                    private static let _$bindingBoxStorage = Logbook._$ModelBindingBox<Swatch>(
                        Logbook._$ModelBinding<Swatch>(
                            entityName: "Swatch",
                            properties: [
                                Swatch._$property_color(),
                            ]
                        )
                    )

                    public static var _$bindingBox: Logbook._$AnyModelBinding {
                        _$bindingBoxStorage
                    }

                    public init(_$storage storage: consuming Logbook._$ModelStorage, values: inout [Logbook.AttributeValue]) throws {
                        self._$storage = consume storage
                        self._color = try Logbook._$ModelStorage._$decodeWithBinding(&values, 0, Swatch.self)
                    }

                    public var _$storedNumber: UInt64? {
                        Logbook._$ModelStorage._$storedNumber(of: _$storage)
                    }
                }

                extension Swatch: Logbook.PersistentModel {
                }
                """#,
            macros: modelOnly
        )
    }

    // MARK: - Misuse

    @Test(arguments: ["struct", "enum", "actor"])
    func rejectsNonClasses(keyword: String) {
        assertExpansion(
            #"""
            @Model
            \#(keyword) Trip {
            }
            """#,
            expandedSource: #"""
                \#(keyword) Trip {
                }
                """#,
            diagnostics: [
                logbookDiagnostic(
                    "modelRequiresClass",
                    "'@Model' cannot be applied to \(keyword) 'Trip'; apply it to a class",
                    line: 2,
                    column: 1
                )
            ],
            macros: modelOnly
        )
    }

    @Test func rejectsAGenericClass() {
        assertExpansion(
            #"""
            @Model
            final class Box<Value> {
            }
            """#,
            expandedSource: #"""
                final class Box<Value> {
                }
                """#,
            diagnostics: [
                logbookDiagnostic(
                    "modelGenericClass",
                    "'@Model' cannot be applied to generic class 'Box'",
                    line: 2,
                    column: 16
                )
            ],
            macros: modelOnly
        )
    }

    @Test func rejectsALetPropertyAndOffersVar() {
        assertExpansion(
            #"""
            @Model
            final class Trip {
                let name: String
                init(name: String) { self.name = name }
            }
            """#,
            expandedSource: #"""
                final class Trip {
                    let name: String
                    init(name: String) { self.name = name }

                    @exclusivity(unchecked) public var _$observationRegistrar = Logbook._$ModelObservationRegistrar()

                    @exclusivity(unchecked) public var _$storage = Logbook._$ModelStorage()

                    private static let _$bindingBoxStorage = Logbook._$ModelBindingBox<Trip>(
                        Logbook._$ModelBinding<Trip>(
                            entityName: "Trip",
                            properties: []
                        )
                    )

                    public static var _$bindingBox: Logbook._$AnyModelBinding {
                        _$bindingBoxStorage
                    }

                    public init(_$storage storage: consuming Logbook._$ModelStorage, values: inout [Logbook.AttributeValue]) throws {
                        self._$storage = consume storage
                    }

                    public var _$storedNumber: UInt64? {
                        Logbook._$ModelStorage._$storedNumber(of: _$storage)
                    }
                }

                extension Trip: Logbook.PersistentModel {
                }
                """#,
            diagnostics: [
                logbookDiagnostic(
                    "modelLetProperty",
                    "'@Model' cannot persist 'let' property 'name'; declare it with 'var', or mark it '@Transient'",
                    line: 3,
                    column: 5,
                    fixIts: ["Replace 'let' with 'var'"]
                )
            ],
            macros: modelOnly,
            applyFixIts: ["Replace 'let' with 'var'"],
            fixedSource: #"""
                @Model
                final class Trip {
                    var name: String
                    init(name: String) { self.name = name }
                }
                """#
        )
    }

    @Test func rejectsAPropertyWithoutTypeAndOffersTheLiteralsType() {
        assertExpansion(
            #"""
            @Model
            final class Counter {
                var count = 0
            }
            """#,
            expandedSource: #"""
                final class Counter {
                    var count = 0

                    @exclusivity(unchecked) public var _$observationRegistrar = Logbook._$ModelObservationRegistrar()

                    @exclusivity(unchecked) public var _$storage = Logbook._$ModelStorage()

                    private static let _$bindingBoxStorage = Logbook._$ModelBindingBox<Counter>(
                        Logbook._$ModelBinding<Counter>(
                            entityName: "Counter",
                            properties: []
                        )
                    )

                    public static var _$bindingBox: Logbook._$AnyModelBinding {
                        _$bindingBoxStorage
                    }

                    public init(_$storage storage: consuming Logbook._$ModelStorage, values: inout [Logbook.AttributeValue]) throws {
                        self._$storage = consume storage
                    }

                    public var _$storedNumber: UInt64? {
                        Logbook._$ModelStorage._$storedNumber(of: _$storage)
                    }

                    init() {
                    }
                }

                extension Counter: Logbook.PersistentModel {
                }
                """#,
            diagnostics: [
                logbookDiagnostic(
                    "modelMissingTypeAnnotation",
                    "'@Model' needs the type of stored property 'count' written out",
                    line: 3,
                    column: 9,
                    fixIts: ["Insert ': Int'"]
                )
            ],
            macros: modelOnly,
            applyFixIts: ["Insert ': Int'"],
            fixedSource: #"""
                @Model
                final class Counter {
                    var count: Int = 0
                }
                """#
        )
    }

    @Test func rejectsPropertyObservers() {
        assertExpansion(
            #"""
            @Model
            final class Trip {
                var name: String = "" {
                    didSet { print(name) }
                }
            }
            """#,
            expandedSource: #"""
                final class Trip {
                    var name: String = "" {
                        didSet { print(name) }
                    }

                    @exclusivity(unchecked) public var _$observationRegistrar = Logbook._$ModelObservationRegistrar()

                    @exclusivity(unchecked) public var _$storage = Logbook._$ModelStorage()

                    private static let _$bindingBoxStorage = Logbook._$ModelBindingBox<Trip>(
                        Logbook._$ModelBinding<Trip>(
                            entityName: "Trip",
                            properties: []
                        )
                    )

                    public static var _$bindingBox: Logbook._$AnyModelBinding {
                        _$bindingBoxStorage
                    }

                    public init(_$storage storage: consuming Logbook._$ModelStorage, values: inout [Logbook.AttributeValue]) throws {
                        self._$storage = consume storage
                    }

                    public var _$storedNumber: UInt64? {
                        Logbook._$ModelStorage._$storedNumber(of: _$storage)
                    }

                    init() {
                    }
                }

                extension Trip: Logbook.PersistentModel {
                }
                """#,
            diagnostics: [
                logbookDiagnostic(
                    "modelPropertyObservers",
                    "'@Model' cannot persist property 'name' with 'willSet' or 'didSet' observers",
                    line: 3,
                    column: 27
                )
            ],
            macros: modelOnly
        )
    }

    @Test func rejectsSeveralVariablesInOneDeclaration() {
        assertExpansion(
            #"""
            @Model
            final class Point {
                var x: Int = 0, y: Int = 0
            }
            """#,
            expandedSource: #"""
                final class Point {
                    var x: Int = 0, y: Int = 0

                    @exclusivity(unchecked) public var _$observationRegistrar = Logbook._$ModelObservationRegistrar()

                    @exclusivity(unchecked) public var _$storage = Logbook._$ModelStorage()

                    private static let _$bindingBoxStorage = Logbook._$ModelBindingBox<Point>(
                        Logbook._$ModelBinding<Point>(
                            entityName: "Point",
                            properties: []
                        )
                    )

                    public static var _$bindingBox: Logbook._$AnyModelBinding {
                        _$bindingBoxStorage
                    }

                    public init(_$storage storage: consuming Logbook._$ModelStorage, values: inout [Logbook.AttributeValue]) throws {
                        self._$storage = consume storage
                    }

                    public var _$storedNumber: UInt64? {
                        Logbook._$ModelStorage._$storedNumber(of: _$storage)
                    }

                    init() {
                    }
                }

                extension Point: Logbook.PersistentModel {
                }
                """#,
            diagnostics: [
                logbookDiagnostic(
                    "modelMultipleBindings",
                    "'@Model' needs one stored property per 'var' declaration",
                    line: 3,
                    column: 9
                )
            ],
            macros: modelOnly
        )
    }

    @Test func rejectsStoredPropertiesInsideIfConfig() {
        assertExpansion(
            #"""
            @Model
            final class Trip {
                #if DEBUG
                var note: String = ""
                #endif
            }
            """#,
            expandedSource: #"""
                final class Trip {
                    #if DEBUG
                    var note: String = ""
                    #endif

                    @exclusivity(unchecked) public var _$observationRegistrar = Logbook._$ModelObservationRegistrar()

                    @exclusivity(unchecked) public var _$storage = Logbook._$ModelStorage()

                    private static let _$bindingBoxStorage = Logbook._$ModelBindingBox<Trip>(
                        Logbook._$ModelBinding<Trip>(
                            entityName: "Trip",
                            properties: []
                        )
                    )

                    public static var _$bindingBox: Logbook._$AnyModelBinding {
                        _$bindingBoxStorage
                    }

                    public init(_$storage storage: consuming Logbook._$ModelStorage, values: inout [Logbook.AttributeValue]) throws {
                        self._$storage = consume storage
                    }

                    public var _$storedNumber: UInt64? {
                        Logbook._$ModelStorage._$storedNumber(of: _$storage)
                    }

                    init() {
                    }
                }

                extension Trip: Logbook.PersistentModel {
                }
                """#,
            diagnostics: [
                logbookDiagnostic(
                    "modelStoredPropertyInIfConfig",
                    "'@Model' cannot persist stored properties declared inside '#if'; declare them outside it",
                    line: 3,
                    column: 5
                )
            ],
            macros: modelOnly
        )
    }
}
