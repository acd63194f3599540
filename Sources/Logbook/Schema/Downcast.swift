/// `value` as a `Target`, which the caller knows it is: a model of the type a mapping, binding
/// or fetch was made for.
///
/// A checked cast, so that a broken invariant stops with a message instead of reading an object
/// as a type it does not have; library code uses it where it would otherwise write `as!`.
/// Inlinable with the bindings and fetches that call it, which are compiled into the app's
/// module for its model types: there the cast is between two known types.
@inlinable
func downcast<Source, Target>(_ value: Source, to _: Target.Type) -> Target {
    guard let target = value as? Target else {
        preconditionFailure("\(type(of: value)) is not a \(Target.self)")
    }
    return target
}
