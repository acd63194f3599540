/// `value` as a `Target`, which the caller knows it is: a model of the type a mapping, binding
/// or fetch was made for.
///
/// Model classes are final, so the common case is settled by comparing the object's class with
/// `Target` and then taking the reference as that class with `unsafeDowncast(_:to:)`, whose one
/// precondition the comparison has just checked. A general dynamic cast (`as?`) is kept for an
/// object whose class is a subclass of `Target`: in code that is not specialised for the model
/// type it looks up generic metadata on every call, which made a save of 1,000 trips with their
/// bucket lists spend a fifth of its instructions in the runtime's casting machinery.
///
/// A broken invariant stops with a message instead of reading an object as a type it does not
/// have; library code uses this where it would otherwise write `as!`.
@inlinable
func downcast<Target: AnyObject>(_ value: AnyObject, to _: Target.Type) -> Target {
    if ObjectIdentifier(type(of: value)) == ObjectIdentifier(Target.self) {
        return unsafeDowncast(value, to: Target.self)
    }
    guard let target = value as? Target else {
        preconditionFailure("\(type(of: value)) is not a \(Target.self)")
    }
    return target
}
