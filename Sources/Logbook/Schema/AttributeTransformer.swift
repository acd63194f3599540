/// Converts values of a type Logbook cannot store into `Data`, for `.transformable(by:)`.
///
/// This is Logbook's counterpart of the `ValueTransformer` subclass that SwiftData's
/// `.transformable(by:)` takes: a type with two static functions instead of an Objective-C
/// class, so that it works the same on every platform. The property's type must be the
/// transformer's ``Value``, or an optional of it.
///
/// ```swift
/// enum ColorTransformer: AttributeTransformer {
///     static func encode(_ value: Color) throws -> Data { Data([value.red, value.green, value.blue]) }
///     static func decode(_ data: Data) throws -> Color {
///         guard data.count == 3 else { throw ColorError.malformed }
///         return Color(red: data[0], green: data[1], blue: data[2])
///     }
/// }
///
/// @Model final class Tag {
///     @Attribute(.transformable(by: ColorTransformer.self)) var color: Color
///     init(color: Color) { self.color = color }
/// }
/// ```
///
/// The schema records the transformer's name, so renaming the transformer type is a schema
/// change.
///
/// ## Topics
///
/// ### Transforming
/// - ``Value``
/// - ``encode(_:)``
/// - ``decode(_:)``
public protocol AttributeTransformer: SendableMetatype {
    /// The type of the property's values.
    associatedtype Value: SendableMetatype

    /// Converts a value into the bytes to store.
    ///
    /// - Parameter value: The property's value.
    /// - Returns: The bytes to store.
    /// - Throws: Any error; saving fails with ``SchemaError/transformerFailed``.
    static func encode(_ value: Value) throws -> Data

    /// Converts stored bytes back into a value.
    ///
    /// - Parameter data: The stored bytes.
    /// - Returns: The property's value.
    /// - Throws: Any error; reading fails with ``SchemaError/transformerFailed``.
    static func decode(_ data: Data) throws -> Value
}
