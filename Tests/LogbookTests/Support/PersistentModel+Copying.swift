@testable import Logbook

extension PersistentModel {
    /// The generated `init(_$storage:values:)`, which takes the strings out of the values it is
    /// given, called with a copy of `values` so that a test can compare against them afterwards.
    init(_$storage storage: consuming _$ModelStorage, copying values: [AttributeValue]) throws {
        var values = values
        try self.init(_$storage: storage, values: &values)
    }
}
