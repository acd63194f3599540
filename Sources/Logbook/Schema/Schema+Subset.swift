extension Schema {
    /// The schema of some of this schema's entities, at its version, with their model types:
    /// the part of a container's schema that one of its stores holds.
    ///
    /// The entities keep their relationships as they are: the caller checks that none leads
    /// outside `names` (see ``StorePartition``).
    ///
    /// - Parameter names: The entity names to keep; names the schema does not have are ignored.
    init(restricting schema: Schema, to names: Set<String>) {
        self.version = schema.version
        self.entities = schema.entities.filter { names.contains($0.name) }
        self.modelTypes = schema.modelTypes.filter { names.contains($0.key) }
        self.problem = schema.problem
    }
}
