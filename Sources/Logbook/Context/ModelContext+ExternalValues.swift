/// The values of `.externalStorage` attributes, which a store that keeps them in files holds as
/// ``ExternalPlaceholder``s: read from their files when a model is made or reloaded.
///
/// The bytes are not cached beside the projection: a model holds them once made, for as long
/// as the application keeps the model, and the projection keeps only the reference, so that the
/// memory a store takes does not grow with the values in its files.
extension ModelContext {
    /// Replaces each ``ExternalPlaceholder`` among `values`, by property index, with the bytes of
    /// its file, checked against the reference.
    ///
    /// - Throws: ``LogbookError/Code/corruption`` naming the file, entity, attribute and object
    ///   when the file is missing or does not hold the bytes; ``LogbookError/Code/io`` when it
    ///   cannot be read.
    func resolveExternalValues(
        _ values: inout [AttributeValue],
        _ id: UInt64,
        mapping: EntityMapping
    ) throws(LogbookError) {
        guard let files = store.externalStorage?.files else { return }
        try files.resolvePlaceholders(
            in: &values,
            at: mapping.externalProperties,
            entity: mapping.entityName,
            id: id
        )
    }

    /// Replaces each ``ExternalPlaceholder`` among `values` whose reference names the bytes
    /// `model` holds already with those bytes, so that a reload reads no file for a value that
    /// did not change: the SHA-256 names the bytes, as it names their file.
    func keepHeldExternalValues(
        _ values: inout [AttributeValue],
        of model: any PersistentModel,
        mapping: EntityMapping
    ) {
        for (position, _) in mapping.externalProperties where values.indices.contains(position) {
            guard let reference = ExternalPlaceholder.reference(in: values[position]),
                case .data(let bytes)? = try? model.readAttribute(position),
                UInt64(bytes.count) == reference.length, SHA256.hash(bytes) == reference.hash
            else { continue }
            values[position] = .data(bytes)
        }
    }

    /// The model `make` makes, where no error can be thrown (a relationship's fault,
    /// ``model(for:)``): `nil` when it cannot be made, for example when a value's file is
    /// missing or damaged, with the error, which names the file, logged.
    func madeOrLogged<Model>(_ make: () throws -> Model) -> Model? {
        do {
            return try make()
        } catch {
            store.logger.error(
                "a stored object could not be made and is left out: \(error)",
                metadata: ["store": "\(store.location)", "error": "\(error)"]
            )
            return nil
        }
    }
}
