extension Schema {
    /// The version of a schema: major, minor and patch numbers.
    ///
    /// ```swift
    /// enum SampleTripsSchemaV2: VersionedSchema {
    ///     static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    ///     // …
    /// }
    /// ```
    ///
    /// Versions order by major, then minor, then patch number.
    ///
    /// ## Topics
    ///
    /// ### Creating a version
    /// - ``init(_:_:_:)``
    ///
    /// ### Components
    /// - ``major``
    /// - ``minor``
    /// - ``patch``
    public struct Version: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
        /// The major version number.
        public var major: Int
        /// The minor version number.
        public var minor: Int
        /// The patch version number.
        public var patch: Int

        /// Creates a version.
        ///
        /// - Parameters:
        ///   - major: The major version number.
        ///   - minor: The minor version number.
        ///   - patch: The patch version number.
        /// - Precondition: No number is negative.
        public init(_ major: Int, _ minor: Int, _ patch: Int) {
            precondition(major >= 0 && minor >= 0 && patch >= 0, "Version numbers are never negative")
            self.major = major
            self.minor = minor
            self.patch = patch
        }

        public static func < (lhs: Version, rhs: Version) -> Bool {
            (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
        }

        /// `2.0.0`.
        public var description: String { "\(major).\(minor).\(patch)" }
    }
}
