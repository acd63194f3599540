import LogbookMacros
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// `@Model` on a class others inherit from and on a subclass of a model class. The compiler
/// tells the member role that a subclass has `PersistentModel` already by leaving it out of the
/// conformances to add: `subclassMacros` does the same.
private var subclassMacros: [String: MacroSpec] {
    var macros = logbookMacros
    macros["Model"] = MacroSpec(type: ModelMacro.self, conformances: [])
    return macros
}

struct ModelInheritanceMacroTests {
    @Test func aClassOthersInheritFromGetsAnOverridableBindingAndARequiredInitializer() {
        assertExpansion(
            #"""
            @Model
            class Trip {
                var name: String

                init(name: String) {
                    self.name = name
                }
            }
            """#,
            expandedSource: #"""
                class Trip {
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

                    init(name: String) {
                        self.name = name
                    }

                    @exclusivity(unchecked) public var _$observationRegistrar = Logbook._$ModelObservationRegistrar()

                    @exclusivity(unchecked) public var _$storage = Logbook._$ModelStorage()

                    private static let _$bindingBoxStorage = Logbook._$ModelBindingBox<Trip>(
                        Logbook._$ModelBinding<Trip>(
                            entityName: "Trip",
                            properties: [
                                Trip._$property_name(),
                            ]
                        )
                    )

                    public class var _$bindingBox: Logbook._$AnyModelBinding {
                        _$bindingBoxStorage
                    }

                    public required init(_$storage storage: consuming Logbook._$ModelStorage, values: inout [Logbook.AttributeValue]) throws {
                        self._$storage = consume storage
                        self._name = try Logbook._$ModelStorage._$decode(&values, 0, Trip.self)
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

    /// A subclass adds its own properties after its superclass's, assigns them before
    /// `super.init` without the inherited storage, and declares nothing it inherits.
    @Test func aSubclassDeclaresOnlyWhatIsItsOwn() {
        assertExpansion(
            #"""
            @Model
            final class BusinessTrip: Trip {
                var perdiem: Double = 0

                init(name: String, perdiem: Double) {
                    self.perdiem = perdiem
                    super.init(name: name)
                }
            }
            """#,
            expandedSource: #"""
                final class BusinessTrip: Trip {
                    var perdiem: Double {
                        @storageRestrictions(initializes: _perdiem)
                        init(initialValue) {
                            _perdiem = initialValue
                        }
                        get {
                            _$observationRegistrar.access(self, keyPath: Self._$keyPath_perdiem)
                            if _$storage._$isFaulted(BusinessTrip._$indexBase + 0) {
                                Logbook._$ModelStorage._$resolveFault(self, BusinessTrip._$indexBase + 0)
                            }
                            return _perdiem
                        }
                        set {
                            if _$storage._$isFaulted(BusinessTrip._$indexBase + 0) {
                                Logbook._$ModelStorage._$resolveFault(self, BusinessTrip._$indexBase + 0)
                            }
                            let oldValue = _perdiem
                            _$observationRegistrar.withMutation(of: self, keyPath: Self._$keyPath_perdiem) {
                                _perdiem = newValue
                            }
                            Logbook._$ModelStorage._$didSet(self, BusinessTrip._$indexBase + 0, from: oldValue, to: newValue)
                        }
                    }

                    private var _perdiem: Double

                    private static let _$keyPath_perdiem = \BusinessTrip.perdiem

                    private static func _$property_perdiem() -> Logbook._$PropertyBinding<BusinessTrip> {
                        Logbook._$PropertyBinding<BusinessTrip>.property(
                            "perdiem",
                            keyPath: \BusinessTrip.perdiem,
                            get: { (model: BusinessTrip) -> Double in
                                model._perdiem
                            },
                            set: { (model: BusinessTrip, value: Double) in
                                model._perdiem = value
                            },
                            hasDefaultValue: true
                        )
                    }

                    init(name: String, perdiem: Double) {
                        self.perdiem = perdiem
                        super.init(name: name)
                    }

                    private static let _$indexBase = Trip._$bindingBox.propertyCount

                    private static let _$bindingBoxStorage = Logbook._$ModelBindingBox<BusinessTrip>(
                        Logbook._$ModelBinding<BusinessTrip>(
                            entityName: "BusinessTrip",
                            inheriting: Trip.self,
                            upcast: {
                                $0
                            },
                            properties: [
                                BusinessTrip._$property_perdiem(),
                            ]
                        )
                    )

                    public override static var _$bindingBox: Logbook._$AnyModelBinding {
                        _$bindingBoxStorage
                    }

                    public required init(_$storage storage: consuming Logbook._$ModelStorage, values: inout [Logbook.AttributeValue]) throws {
                        self._perdiem = try Logbook._$ModelStorage._$isMissing(values, BusinessTrip._$indexBase + 0) ? (0) : Logbook._$ModelStorage._$decode(&values, BusinessTrip._$indexBase + 0, BusinessTrip.self)
                        try super.init(_$storage: storage, values: &values)
                    }
                }
                """#,
            macros: subclassMacros
        )
    }

    @Test func aSubclassWithoutAnInitializerCallingSuperIsDiagnosed() {
        assertExpansion(
            #"""
            @Model
            final class BusinessTrip: Trip {
                var perdiem: Double = 0
            }
            """#,
            expandedSource: #"""
                final class BusinessTrip: Trip {
                    @_LogbookPersistedProperty(0)
                    var perdiem: Double = 0
                }
                """#,
            diagnostics: [
                logbookDiagnostic(
                    "modelSubclassWithoutSuperInit",
                    "'@Model' subclass 'BusinessTrip' must declare an initializer that calls 'super.init'",
                    line: 2,
                    column: 13
                )
            ],
            macros: subclassMacros.filter { $0.key != "_LogbookPersistedProperty" }
        )
    }

    @Test func aModelWhoseSuperclassIsNotAModelIsDiagnosed() {
        assertExpansion(
            #"""
            @Model
            final class Trip: NSObject {
                var name: String

                init(name: String) {
                    self.name = name
                    super.init()
                }
            }
            """#,
            expandedSource: #"""
                final class Trip: NSObject {
                    @_LogbookPersistedProperty(0, inherited: true)
                    var name: String

                    init(name: String) {
                        self.name = name
                        super.init()
                    }
                }

                extension Trip: Logbook.PersistentModel {
                }
                """#,
            diagnostics: [
                logbookDiagnostic(
                    "modelSuperclassNotModel",
                    "'@Model' class 'Trip' calls 'super.init', but its superclass is not a model; a model class can inherit only from another '@Model' class",
                    line: 2,
                    column: 13
                )
            ],
            macros: logbookMacros.filter { $0.key != "_LogbookPersistedProperty" }
        )
    }
}
